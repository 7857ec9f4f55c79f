// Benchmark: GET /v1/wallets/{address}/transactions/ (a full page of 100) through the gateway, the
// indexer's gRPC service and ClickHouse, against a bare Express route serving the same JSON,
// measured in the same run with autocannon. Needs the running stack of `bash scripts/start.sh`
// (the demo world indexed).
//   pnpm bench:transactions [--duration 10] [--connections 50] [--url http://127.0.0.1:8080]
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchAuthorization, measure as measureLoad } from './load.js';

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
const headers = benchAuthorization(root);
const manifest = JSON.parse(readFileSync(join(root, '.data/devnet/manifest.json'), 'utf8')) as { chains: { id: string; wallets: { address: string }[] }[] };

async function getJson(url: string): Promise<any> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

const measure = async (title: string, url: string, requestHeaders: Record<string, string>) => ({
  title,
  ...(await measureLoad(url, requestHeaders, { connections, duration })),
});

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
  console.log(`gateway p99: ${gateway.p99} ms (bare: ${baseline.p99} ms)`);
} finally {
  for (const child of children) child.kill('SIGTERM');
}
