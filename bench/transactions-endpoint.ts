// Benchmark: GET /v1/wallets/{address}/transactions/ (a full page of 100) through the gateway, the
// indexer's gRPC service and ClickHouse, against a bare Express route serving the same JSON,
// measured in the same run with autocannon. Needs the running stack of `bash scripts/start.sh`
// (the demo world indexed).
//   pnpm bench:transactions [--duration 10] [--connections 50] [--url http://127.0.0.1:8080]
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = new URL('..', import.meta.url).pathname;
const barePort = 18082;
// A key of the benchmark's own: the demo key's rate limit would answer most requests with 429.
const keyOutput = execFileSync('node', [join(root, 'services/gateway/dist/cli/main.js'), 'keys', 'create', '--org', 'bench', '--rate-limit', '1000000', '--burst', '1000000'], { encoding: 'utf8' });
const key = keyOutput.trim().split('\n').at(-1)!;
const headers = { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
const manifest = JSON.parse(readFileSync(join(root, '.data/devnet/manifest.json'), 'utf8')) as { chains: { id: string; wallets: { address: string }[] }[] };

async function getJson(url: string): Promise<any> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function measure(title: string, url: string, requestHeaders: Record<string, string>) {
  // A short warm-up so JIT compilation and connection setup do not count.
  await autocannon({ url, headers: requestHeaders, connections, duration: 2 });
  const result = await autocannon({ url, headers: requestHeaders, connections, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${title}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { title, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

const children: ChildProcess[] = [];
try {
  // The busiest wallet of the demo world: the one whose first page is full and oldest-reaching.
  let chosen: { path: string; body: any } | undefined;
  for (const wallet of manifest.chains.find((chain) => chain.id === 'ethereum')!.wallets.slice(0, 40)) {
    const path = `/v1/wallets/${wallet.address.toLowerCase()}/transactions/?page[size]=100`;
    const body = await getJson(`${values.url}${path}`);
    if (!chosen || body.data.length > chosen.body.data.length) chosen = { path, body };
    if (body.data.length === 100) break;
  }
  if (!chosen || chosen.body.data.length === 0) throw new Error('no demo wallet has indexed transactions yet; wait for the indexer to catch up');
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-')), 'transactions.json');
  writeFileSync(bodyFile, JSON.stringify(chosen.body));
  const route = chosen.path.split('?')[0]!;
  const bare = fork(join(root, 'bench/bare-server.ts'), [bodyFile, String(barePort), route], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  children.push(bare);
  await new Promise((resolve) => bare.once('message', resolve));

  const gateway = await measure('gateway + gRPC + ClickHouse', `${values.url}${chosen.path}`, headers);
  const baseline = await measure('bare Express', `http://127.0.0.1:${barePort}${chosen.path}`, {});
  console.log(`\nGET ${chosen.path}  (${chosen.body.data.length} transactions per answer; ${connections} connections, ${duration} s each, after 2 s warm-up)`);
  console.table([gateway, baseline].map((row) => ({ target: row.title, 'req/s': Math.round(row.requestsPerSecond), 'p50 ms': row.p50, 'p99 ms': row.p99, requests: row.total })));
  console.log(`gateway / bare throughput ratio: ${(gateway.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)}`);
  console.log(`gateway p99: ${gateway.p99} ms (bare: ${baseline.p99} ms)`);
} finally {
  for (const child of children) child.kill('SIGTERM');
}
