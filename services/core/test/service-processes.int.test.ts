import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsPortVariable, type ServiceName } from '../src/config/index.js';
import { checkHealth, eventually, freePort } from '../src/testing/index.js';

// Every service as it runs in production: the built entry point in its own process. This is
// where ESM/CommonJS interop mistakes show, which the test runner's module loader would hide.
const root = new URL('../../../', import.meta.url).pathname;
const grpcServices: { name: ServiceName; health: string; portVariable: string }[] = [
  { name: 'reference-data', health: 'walletapi.referencedata.ReferenceData', portVariable: 'REFERENCE_DATA_GRPC_PORT' },
  { name: 'indexer', health: 'walletapi.indexer.Indexer', portVariable: 'INDEXER_GRPC_PORT' },
  { name: 'positions', health: 'walletapi.positions.Positions', portVariable: 'POSITIONS_GRPC_PORT' },
  { name: 'pnl', health: 'walletapi.pnl.Pnl', portVariable: 'PNL_GRPC_PORT' },
  { name: 'chart', health: 'walletapi.chart.Chart', portVariable: 'CHART_GRPC_PORT' },
  { name: 'nft', health: 'walletapi.nft.Nft', portVariable: 'NFT_GRPC_PORT' },
  { name: 'subscription', health: 'walletapi.subscription.Subscription', portVariable: 'SUBSCRIPTION_GRPC_PORT' },
];

/** What a service cannot start without (the subscription service's webhook keys). */
function requiredEnv(name: string): Record<string, string> {
  if (name !== 'subscription') return {};
  const keyFile = join(mkdtempSync(join(tmpdir(), 'webhook-key-')), 'signing-key.pem');
  writeFileSync(keyFile, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return { SUBSCRIPTION_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_SIGNING_KEY_FILE: keyFile };
}

/** The built service in its own process, its metrics on a free port (a development stack may hold the default). */
async function start(name: ServiceName, env: Record<string, string>): Promise<ChildProcess> {
  const entry = `${root}services/${name}/dist/main.js`;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run bash scripts/build.sh`);
  const metrics = { [metricsPortVariable(name)]: String(await freePort()) };
  return spawn('node', [entry], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...metrics, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, ms: Date.now() - started })));
}

describe('service processes', () => {
  test.each(grpcServices.map((service) => [service.name, service] as const))(
    '%s serves gRPC health and exits 0 within 10 s of SIGTERM',
    async (_name, service) => {
      // A free port rather than a fixed one: fixed ports in the ephemeral range (51051-51057 were)
      // are sometimes the local port of one of the machine's outgoing connections.
      const port = await freePort();
      const child = await start(service.name, { [service.portVariable]: String(port), ...requiredEnv(service.name) });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      try {
        // A service that never answers tells why on stderr (a port taken, a missing setting).
        const health = await eventually(() => checkHealth(`127.0.0.1:${port}`, ''), 15_000).catch((error: Error) => {
          throw new Error(`${error.message}; the service's stderr: ${stderr}`);
        });
        expect(health).toBe('SERVING');
        expect(await checkHealth(`127.0.0.1:${port}`, service.health)).toBe('SERVING');
        const exited = exitOf(child);
        child.kill('SIGTERM');
        const { code, ms } = await exited;
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
        expect(ms).toBeLessThan(10_000);
      } finally {
        child.kill('SIGKILL');
      }
    },
  );

  test('gateway serves HTTP and exits 0 within 10 s of SIGTERM', async () => {
    const child = await start('gateway', { HTTP_PORT: '18090', REFERENCE_DATA_GRPC_ADDRESS: '127.0.0.1:1' });
    try {
      const health = await eventually(async () => {
        const response = await fetch('http://127.0.0.1:18090/healthz');
        return response.json();
      });
      expect(health).toEqual({ status: 'ok' });
      const exited = exitOf(child);
      child.kill('SIGTERM');
      const { code, ms } = await exited;
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
