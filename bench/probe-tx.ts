import autocannon from 'autocannon';
import { benchAuthorization } from './load.js';
const root = new URL('..', import.meta.url).pathname;
const headers = { ...benchAuthorization(root), 'accept-encoding': 'gzip, deflate, br' };
const wallet = process.argv[2]!;
async function totals() {
  const out = new Map<string, [number, number]>();
  for (const port of [9460, 9461, 9464]) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const m of text.matchAll(/^(wallet_api_(?:grpc_server|grpc_client|clickhouse_query)_duration_seconds)_(sum|count)\{([^}]*)\} (\S+)$/gm)) {
      const labels = m[3]!.replace(/code="OK",?|outcome="ok",?/g, '');
      const key = `${m[1]!.replace('wallet_api_', '').replace('_duration_seconds', '')} ${labels}`;
      const v = out.get(key) ?? [0, 0];
      if (m[2] === 'sum') v[0] += Number(m[4]); else v[1] += Number(m[4]);
      out.set(key, v);
    }
  }
  return out;
}
const before = await totals();
const r = await autocannon({ url: `http://127.0.0.1:8080/v1/wallets/${wallet}/transactions/?page[size]=100`, headers, connections: 50, duration: 10 });
const after = await totals();
console.log('req/s', r.requests.average, 'p99', r.latency.p99);
for (const [k, [s, c]] of after) {
  const b = before.get(k) ?? [0, 0];
  const n = c - b[1];
  if (n > 0) console.log(k.slice(0, 140), 'calls', n, 'avg ms', (((s - b[0]) / n) * 1000).toFixed(1));
}
