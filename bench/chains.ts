// Benchmark: GET /v1/chains/ through the gateway and the reference-data gRPC service, against a
// bare Express route serving the same JSON, measured in the same run with autocannon.
// Needs the infrastructure (bash scripts/up.sh) and a build (bash scripts/build.sh).
//   pnpm bench:chains [--duration 10] [--connections 50]
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = new URL('..', import.meta.url).pathname;
const gatewayPort = 18080;
const barePort = 18081;
const grpcPort = 50151;
const children: ChildProcess[] = [];

function startService(name: string, env: Record<string, string>): void {
  const child = spawn('node', [join(root, `services/${name}/dist/main.js`)], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
}

async function waitForOk(url: string, headers: Record<string, string>): Promise<unknown> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { headers });
      if (response.ok) return response.json();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer 200 within 30 s`);
}

async function measure(title: string, url: string, headers: Record<string, string>) {
  // A short warm-up so JIT compilation and connection setup do not count.
  await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${title}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { title, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

try {
  const keyOutput = execFileSync(
    'node',
    [join(root, 'services/gateway/dist/cli/main.js'), 'keys', 'create', '--org', 'bench', '--rate-limit', '1000000', '--burst', '1000000'],
    { encoding: 'utf8' },
  );
  const key = keyOutput.trim().split('\n').at(-1)!;
  const headers = { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };

  startService('reference-data', { REFERENCE_DATA_GRPC_PORT: String(grpcPort) });
  startService('gateway', { HTTP_PORT: String(gatewayPort), REFERENCE_DATA_GRPC_ADDRESS: `127.0.0.1:${grpcPort}` });
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}/v1/chains/`;
  const body = await waitForOk(gatewayUrl, headers);

  const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-')), 'chains.json');
  writeFileSync(bodyFile, JSON.stringify(body));
  const bare = fork(join(root, 'bench/bare-server.ts'), [bodyFile, String(barePort)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  children.push(bare);
  await new Promise((resolve) => bare.once('message', resolve));
  const bareUrl = `http://127.0.0.1:${barePort}/v1/chains/`;
  await waitForOk(bareUrl, {});

  const gateway = await measure('gateway + gRPC', gatewayUrl, headers);
  const baseline = await measure('bare Express', bareUrl, {});
  console.log(`\nGET /v1/chains/  (${connections} connections, ${duration} s each, after 2 s warm-up)`);
  console.table(
    [gateway, baseline].map((row) => ({
      target: row.title,
      'req/s': Math.round(row.requestsPerSecond),
      'p50 ms': row.p50,
      'p99 ms': row.p99,
      requests: row.total,
    })),
  );
  console.log(`gateway / bare throughput ratio: ${(gateway.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)}`);
  console.log(`gateway / bare p50 latency ratio: ${(gateway.p50 / Math.max(baseline.p50, 0.001)).toFixed(2)}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
}
