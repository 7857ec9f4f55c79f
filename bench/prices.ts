// Benchmark: price lookups served by reference-data's GetPrices for 1,000 (fungible implementation,
// time) pairs spread over the devnet world's history, each chain's implementation of every market
// asset, against a bare in-memory Map lookup of the same 1,000 answers in the same run.
// Measures single lookups (one pair per call, sequential: the latency a caller pays per price) and
// whole batches (all pairs in one call: what a chart or a transactions page pays).
// Needs the running stack of `bash scripts/start.sh` (reference-data on 127.0.0.1:50051 with the
// world's prices folded).
//   pnpm bench:prices [--pairs 1000] [--batches 20] [--address 127.0.0.1:50051]
import { parseArgs } from 'node:util';
import { createGrpcClient, unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { readManifest } from '../devnet/src/manifest/index.js';
import { marketAssets } from '../devnet/src/truth/index.js';
import { createRng } from '../devnet/src/world/index.js';

const { values } = parseArgs({
  options: { pairs: { type: 'string', default: '1000' }, batches: { type: 'string', default: '20' }, address: { type: 'string', default: '127.0.0.1:50051' } },
});
const pairCount = Number(values.pairs);
const batchCount = Number(values.batches);

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (title: string, millis: number[]) => {
  const sorted = [...millis].sort((a, b) => a - b);
  return { title, calls: sorted.length, p50Ms: Number(percentile(sorted, 50).toFixed(3)), p99Ms: Number(percentile(sorted, 99).toFixed(3)) };
};

const manifest = await readManifest();
const mainnet = manifest.chains.filter((chain) => chain.id !== 'sepolia');
const implementations = marketAssets(mainnet).flatMap((asset) => asset.implementations);
const first = mainnet[0]!;
const rng = createRng('bench-prices');
const span = [first.genesisTimestamp + 2 * 86_400, Math.floor(Date.now() / 1000)] as const;
const pairs = Array.from({ length: pairCount }, () => ({ token: rng.pick(implementations), timestamp: rng.int(span[0], span[1]) }));
const queries = pairs.map((pair) => ({ token: { chainId: pair.token.chainId, address: pair.token.address }, timestamp: String(pair.timestamp) }));
const context = { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET };
const client = createGrpcClient(ReferenceDataClient, values.address!);
const getPrices = (batch: typeof queries) => unary(client, client.getPrices, { context, currency: 'usd', queries: batch });

// Warm-up: connection, JIT and the service's caches, as a running service has them.
const { prices: answers } = await getPrices(queries);
const priced = answers.filter((answer) => answer.price !== undefined).length;

const single: number[] = [];
for (const query of queries) {
  const started = performance.now();
  await getPrices([query]);
  single.push(performance.now() - started);
}
const batched: number[] = [];
for (let round = 0; round < batchCount; round++) {
  const started = performance.now();
  await getPrices(queries);
  batched.push(performance.now() - started);
}

// The baseline: the same answers from a Map, keyed as a caller would key them.
const map = new Map(pairs.map((pair, index) => [`${pair.token.chainId}:${pair.token.address}:${pair.timestamp}`, answers[index]!.price]));
const bare: number[] = [];
let checksum = 0;
for (let round = 0; round < 20; round++) {
  const started = performance.now();
  for (const pair of pairs) checksum += map.get(`${pair.token.chainId}:${pair.token.address}:${pair.timestamp}`) ?? 0;
  bare.push(performance.now() - started);
}
client.close();

const perLookup = (millis: number[]) => millis.map((value) => value / pairs.length);
const results = [
  summary('GetPrices, one pair per call', single),
  summary('GetPrices, 1,000 pairs per call (per call)', batched),
  summary('Map, 1,000 lookups (per 1,000)', bare),
];
console.table(results);
const batchP50 = percentile(
  [...perLookup(batched)].sort((a, b) => a - b),
  50,
);
const bareP50 = percentile(
  [...perLookup(bare)].sort((a, b) => a - b),
  50,
);
console.log(
  JSON.stringify({
    pairs: pairs.length,
    priced,
    perLookupMs: { single: results[0]!.p50Ms, batched: Number(batchP50.toFixed(4)), map: Number(bareP50.toFixed(6)) },
    ratioBatchedToMap: Number((bareP50 / batchP50).toFixed(6)),
    checksum: checksum > 0,
  }),
);
