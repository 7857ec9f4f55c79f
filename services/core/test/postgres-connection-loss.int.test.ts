import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { eventually, freePort } from '../src/testing/index.js';

// A PostgreSQL stopped with `pg_ctl -m fast` (what an operator's restart does) under a process
// whose transactions wait for pool clients. This used to kill the process with an unhandled
// 'error' on a pg Client (issue 38). The server is a private cluster on a free port, so the rest of
// the suite keeps its database.
const busyPrisma = new URL('./fixtures/busy-prisma.ts', import.meta.url).pathname;
const asRoot = process.getuid?.() === 0;
const serverBin = join(
  '/usr/lib/postgresql',
  readdirSync('/usr/lib/postgresql')
    .sort((a, b) => Number(a) - Number(b))
    .at(-1)!,
  'bin',
);
// PostgreSQL refuses to run as root; as root the cluster belongs to Debian's `postgres` user.
const asServerUser = (command: string, args: string[]) =>
  execFileSync(asRoot ? 'runuser' : join(serverBin, command), asRoot ? ['-u', 'postgres', '--', join(serverBin, command), ...args] : args, { stdio: 'ignore' });

let directory: string;
let port: number;
let busy: ChildProcess;
const counts = { ok: 0, failed: 0 };
const warnings: string[] = [];
const pgCtl = (...args: string[]) => asServerUser('pg_ctl', ['-D', join(directory, 'data'), '-w', '-t', '60', ...args]);
const running = () => busy.exitCode === null && busy.signalCode === null;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'postgres-loss-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', directory]);
  port = await freePort();
  asServerUser('initdb', ['-D', join(directory, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  pgCtl('-o', `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', join(directory, 'server.log'), 'start');
  busy = spawn(process.execPath, ['--import', 'tsx', busyPrisma], {
    env: { ...process.env, DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/postgres`, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  createInterface({ input: busy.stdout! }).on('line', (line) => {
    const parsed = JSON.parse(line) as { ok?: number; failed?: number; msg?: string };
    if (parsed.msg === undefined) Object.assign(counts, parsed);
    else warnings.push(parsed.msg);
  });
}, 120_000);

afterAll(async () => {
  if (busy && running()) {
    busy.kill('SIGKILL');
    await new Promise((resolve) => busy.once('exit', resolve));
  }
  try {
    pgCtl('-m', 'immediate', 'stop');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a process busy with transactions outlives five fast shutdowns of PostgreSQL and works again after each', async () => {
  await eventually(() => expect(counts.ok).toBeGreaterThan(200), 60_000);
  for (let round = 0; round < 5; round++) {
    pgCtl('-m', 'fast', 'stop');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(running()).toBe(true);
    const failedWhileDown = counts.failed;
    pgCtl('-o', `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', join(directory, 'server.log'), 'start');
    const okAtRestart = counts.ok;
    await eventually(() => expect(counts.ok).toBeGreaterThan(okAtRestart + 200), 30_000);
    expect(failedWhileDown).toBeGreaterThan(0);
  }
  expect(running()).toBe(true);
  // Lost connections were heard and logged, once per client, not left to crash the process.
  expect(warnings).toContain('PostgreSQL connection lost; the pool opens another');
}, 180_000);
