import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../src/testing/index.js';

// scripts/lib/supervise.sh, which the start command runs each service under: a service that dies
// is started again (with a back-off), and stopping the supervisor stops the service cleanly.
const supervise = new URL('../../../scripts/lib/supervise.sh', import.meta.url).pathname;

function supervised(script: string) {
  const log = join(mkdtempSync(join(tmpdir(), 'supervise-')), 'service.log');
  const supervisor = spawn('bash', [supervise, 'demo', log, 'node', '-e', script], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => supervisor.once('exit', resolve));
  const lines = () => readFileSync(log, 'utf8').trim().split('\n');
  return { supervisor, exited, lines };
}

describe('supervise.sh', () => {
  test('a service that exits is started again after 1 s, then 2 s, each exit logged as JSON with its status', async () => {
    const { supervisor, exited, lines } = supervised("console.log('started'); process.exit(3)");
    try {
      await eventually(async () => expect(lines().filter((line) => line === 'started')).toHaveLength(3), 10_000);
      const exits = lines()
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(exits.slice(0, 2)).toEqual([
        { level: 50, time: expect.any(Number), service: 'demo', name: 'supervisor', status: 3, restartInSeconds: 1, msg: 'service exited; restarting' },
        { level: 50, time: expect.any(Number), service: 'demo', name: 'supervisor', status: 3, restartInSeconds: 2, msg: 'service exited; restarting' },
      ]);
    } finally {
      supervisor.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 20_000);

  test('TERM stops the service through its own shutdown, and the supervisor with it, starting nothing again', async () => {
    const { supervisor, exited, lines } = supervised(
      "process.on('SIGTERM', () => { console.log('shutting down'); setTimeout(() => process.exit(0), 300); }); console.log('serving'); setInterval(() => {}, 1000);",
    );
    await eventually(async () => expect(lines()).toEqual(['serving']), 10_000);
    const asked = Date.now();
    supervisor.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(lines()).toEqual(['serving', 'shutting down']);
  }, 20_000);
});
