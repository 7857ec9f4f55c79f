// Benchmark (issue 15): one wallet with 1,000,000 balance changes over 5 years across 50 assets.
// Publishes synthetic BalanceChange messages to topics of the benchmark's own (never the platform
// topics: the stack's positions service would read balances at the synthetic blocks from the chain
// and fail), ingests them with the chart service's real consumer and store into a ClickHouse
// database of its own, and serves GetWalletChart with the real gRPC service and valuation against
// the running stack's reference-data (demo devnet world: its prices, its tokens). Prints the ingest
// time, then per period the cold first request and warm p50/p99 through a real gRPC client, beside
// a `SELECT count()` over the same wallet's rows in the same run (the cheapest query that touches
// them all) and their ratio. Target: warm p50 under 50 ms for every period.
// Needs the running stack of `bash scripts/start.sh`.
//   pnpm bench:charts [--changes 1000000] [--assets 50] [--samples 20]
import { randomBytes, randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { sql, type ClickHouse } from '@wallet-api/core/clickhouse';
import { createGrpcClient, startGrpcServer, unary } from '@wallet-api/core/grpc';
import { createKafka, createProducer, ensureTopics, topics, type OutgoingMessage, type TopicSpec } from '@wallet-api/core/kafka';
import { createLogger } from '@wallet-api/core/logger';
import { grpcClientDuration } from '@wallet-api/core/metrics';
import { ChartClient, type WalletChart } from '@wallet-api/core/proto/chart';
import { Network } from '@wallet-api/core/proto/common';
import { AssetKind, type BalanceChange } from '@wallet-api/core/proto/events';
import { PositionsClient } from '@wallet-api/core/proto/positions';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory, createWalletTracking } from '@wallet-api/core/reference-data';
import { consumerGroupCaughtUp, setupClickHouseDatabase } from '@wallet-api/core/testing';
import { createChartConsumer, type ChartConsumerTopics } from '../services/chart/src/consume/chart-consumer.js';
import { chartService } from '../services/chart/src/grpc/chart-service.js';
import { createChangesMemo } from '../services/chart/src/series/changes-memo.js';
import { createChartValuation, type ChartValuation } from '../services/chart/src/prices/chart-valuation.js';
import { createPointPriceCache } from '@wallet-api/core/reference-data';
import { createProtocolSeries } from '../services/chart/src/protocols/protocol-series.js';
import { createBlockClock } from '../services/chart/src/store/block-clock.js';
import { createChartStore, type ChartStore } from '../services/chart/src/store/chart-store.js';
import { readManifest } from '../devnet/src/manifest/index.js';
import { worldTokens } from '../devnet/src/truth/index.js';

const { values } = parseArgs({
  options: { changes: { type: 'string', default: '1000000' }, assets: { type: 'string', default: '50' }, samples: { type: 'string', default: '20' } },
});
const changeCount = Number(values.changes);
const assetCount = Number(values.assets);
const samples = Number(values.samples);
const periods = ['max', '5years', 'year', 'month', 'day'] as const;
const chainIds = ['ethereum', 'base'];
const day = 86_400;

const logger = createLogger('bench-charts', 'warn');
const kafka = createKafka({ brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','), clientId: 'bench-charts', logger });
const name = `bench_charts_${Date.now()}`;
const rename = <T>(spec: TopicSpec<T>): TopicSpec<T> => ({ ...spec, name: `${spec.name}.${name}` });
const benchTopics: ChartConsumerTopics = {
  balanceChanges: rename(topics.balanceChanges),
  chainRollbacks: rename(topics.chainRollbacks),
  chainBlocks: rename(topics.chainBlocks),
};
const groupId = name;
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;
// A fresh address has no code, so reference-data classifies it as a tracked (served) wallet.
const wallet = hex(20);

// The assets: each mainnet chain's native asset and the demo world's tokens (priced by its pools),
// then random addresses up to --assets (unknown tokens: they cost rows and lookups, add no value).
const manifest = await readManifest();
const known = manifest.chains
  .filter((chain) => chainIds.includes(chain.id))
  .flatMap((chain) => [
    { chainId: chain.id, address: '', decimals: 18 },
    ...worldTokens(chain).tokens.map((token) => ({ chainId: chain.id, address: token.address.toLowerCase(), decimals: token.decimals })),
  ]);
const assets = known.slice(0, assetCount);
while (assets.length < assetCount) assets.push({ chainId: chainIds[assets.length % 2]!, address: hex(20), decimals: 18 });
// Vault shares (ERC-4626) are held only from a day after the world's genesis, once the vaults
// exist: their price reads convertToAssets on the chain, and reference-data answers UNAVAILABLE
// (failing the whole chart) for a time before the vault was deployed but after its asset had a price.
const worldStart = Math.max(...manifest.chains.map((chain) => chain.genesisTimestamp)) + day;
const vaults = new Set(
  manifest.chains.flatMap((chain) =>
    (chain.protocols.defi as { vaults: { address: string }[] }).vaults.map((vault) => `${chain.id}:${vault.address.toLowerCase()}`),
  ),
);
const anytime = assets.flatMap((asset, index) => (vaults.has(`${asset.chainId}:${asset.address}`) ? [] : [index]));

// Changes spread evenly over the 5 years before now, in time order; each in a block of its own
// (unique random hash, never orphaned), block numbers ascending per chain; every balance stays >= 0.
const nowSeconds = Math.floor(Date.now() / 1000);
const firstAt = nowSeconds - 5 * 365 * day;
const balances = assets.map(() => 0n);
const blockNumbers = new Map(chainIds.map((id) => [id, 1_000_000]));
function syntheticChange(index: number): OutgoingMessage<BalanceChange> {
  const timestamp = firstAt + Math.floor((index * 5 * 365 * day) / changeCount);
  const which = timestamp < worldStart ? anytime[randomInt(anytime.length)]! : randomInt(assets.length);
  const asset = assets[which]!;
  const unit = 10n ** BigInt(asset.decimals);
  const held = balances[which]!;
  // Mostly credits (1-1000 whole tokens and a fraction), and debits of up to what is held.
  const amount =
    held === 0n || randomInt(5) < 3 ? BigInt(randomInt(1, 1001)) * unit + BigInt(randomInt(1_000_000)) : -(held * BigInt(randomInt(1, 1001))) / 1000n;
  balances[which] = held + amount;
  const blockNumber = blockNumbers.get(asset.chainId)! + randomInt(1, 20);
  blockNumbers.set(asset.chainId, blockNumber);
  const value: BalanceChange = {
    chainId: asset.chainId,
    wallet,
    asset: { kind: asset.address === '' ? AssetKind.ASSET_KIND_NATIVE : AssetKind.ASSET_KIND_ERC20, address: asset.address, tokenId: '' },
    blockNumber: String(blockNumber),
    blockHash: hex(32),
    blockTimestamp: String(timestamp),
    transactionHash: hex(32),
    transactionIndex: 0,
    amount: String(amount),
  };
  return { key: `${asset.chainId}:${wallet}`, value };
}

const percentile = (millis: readonly number[], p: number) => {
  const sorted = [...millis].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const round = (ms: number) => Number(ms.toFixed(1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

// Where a request's time goes, seen from outside the service: its store and valuation calls are
// wrapped (the same objects, timed), and GetPrices calls are read from the client histogram.
const spent = { firstActivity: 0, changes: 0, sql: 0, valuation: 0 };
const none = { firstActivity: 0, changes: 0, sql: 0, valuation: 0 };
function timedStore(store: ChartStore, onAdded: (rows: number) => void): ChartStore {
  return {
    ...store,
    async add(rows) {
      const accepted = await store.add(rows);
      onAdded(rows.length);
      return accepted;
    },
    changes: async (request, window) => {
      const { result, ms } = await timed(() => store.changes(request, window));
      spent.changes += ms;
      return result;
    },
    firstActivity: async (request) => {
      const { result, ms } = await timed(() => store.firstActivity(request));
      spent.firstActivity += ms;
      return result;
    },
  };
}
const timedValuation = (valuation: ChartValuation): ChartValuation => ({
  values: async (...args) => {
    const { result, ms } = await timed(() => valuation.values(...args));
    spent.valuation += ms;
    return result;
  },
});
const getPricesCalls = async () =>
  (await grpcClientDuration.get()).values
    .filter((entry) => entry.metricName?.endsWith('_count') && String(entry.labels.method).endsWith('/GetPrices'))
    .reduce((sum, entry) => sum + entry.value, 0);

const database = await setupClickHouseDatabase(name);
const clickhouse: ClickHouse = database.clickhouse;
const referenceData = createGrpcClient(ReferenceDataClient, process.env.REFERENCE_DATA_GRPC_ADDRESS ?? '127.0.0.1:50051');
// Only simple charts are measured: the positions service is never asked.
const positions = createGrpcClient(PositionsClient, process.env.POSITIONS_GRPC_ADDRESS ?? '127.0.0.1:50053');
// The stack's key space: the price moves and rollbacks the chart service sees are the live devnet's.
const changes = connectChangeVersions(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  keyPrefix: process.env.REDIS_KEY_PREFIX ?? 'wallet-api',
  onError: (error) => logger.warn({ err: error }, 'redis error'),
});
let handed = 0;
// The store's own ClickHouse round trips are timed too: what of `changes` is SQL, what bigint work.
const storeClickHouse: ClickHouse = {
  ...clickhouse,
  query: async <Row>(query: Parameters<ClickHouse['query']>[0]) => {
    const { result, ms } = await timed(() => clickhouse.query<Row>(query));
    spent.sql += ms;
    return result;
  },
};
const store = timedStore(
  createChartStore({ clickhouse: storeClickHouse, logger, storeEveryMs: 300_000, everything: () => changes.versions.everything() }),
  (rows) => (handed += rows),
);
const clock = createBlockClock({ clickhouse, logger, storeEveryMs: 300_000, everything: () => changes.versions.everything() });
const consumer = createChartConsumer({
  kafka,
  store,
  clock,
  tracking: createWalletTracking(referenceData),
  versions: changes.versions,
  logger,
  groupId,
  topics: benchTopics,
});
// As the service runs it: past points' prices kept across charts until a price move reaches their time.
const valuation = timedValuation(
  createChartValuation({
    referenceData,
    tokens: createTokenDirectory(referenceData),
    cache: createPointPriceCache({ versions: changes.versions, settleSeconds: 600, maxEntries: 500_000 }),
  }),
);
// The store's reads are what this measures: a memo that can never read the tokens reads the store every time.
const storeEveryTime = createChangesMemo({ store, versions: { walletTokens: () => Promise.reject(new Error('not kept')) }, maxEntries: 1 });
const server = await startGrpcServer({
  host: '127.0.0.1',
  port: 0,
  services: [
    chartService({
      store,
      clock,
      changes: storeEveryTime,
      valuation,
      protocols: createProtocolSeries({ positions, clock, everything: () => changes.versions.everything() }),
    }),
  ],
  logger,
});
const client = createGrpcClient(ChartClient, `127.0.0.1:${server.port}`);
const context = { organizationId: '', roles: [], addons: [], network: Network.NETWORK_MAINNET };
const chart = (period: string) =>
  unary(
    client,
    client.getWalletChart,
    {
      context,
      addresses: [wallet],
      chainIds,
      currency: 'usd',
      period,
      fungibleIds: [],
      excludeFungibleIds: [],
      positions: 'only_simple',
      poolAddresses: [],
      excludePoolAddresses: [],
    },
    { name: 'Chart/GetWalletChart', deadlineMs: 120_000 },
  );
const countRows = async () =>
  Number((await clickhouse.query<{ count: string }>(sql`SELECT count() AS count FROM chart_balance_changes WHERE address = ${wallet}`))[0]!.count);

let stopped = false;
try {
  await ensureTopics(kafka, Object.values(benchTopics) as TopicSpec<unknown>[]);
  // The consumer runs while the messages are published, as the service runs beside the indexer.
  await consumer.start();
  console.log(`wallet ${wallet}: ${changeCount} changes of ${assets.length} assets (${known.length} of the demo world) over 5 years`);
  const producer = await createProducer(kafka);
  const started = performance.now();
  // 2,000 messages a send: all go to two partitions (two keys), and a partition's batch must stay
  // under the broker's 1 MB message limit.
  for (let start = 0; start < changeCount; start += 2_000) {
    await producer.send(
      benchTopics.balanceChanges,
      Array.from({ length: Math.min(2_000, changeCount - start) }, (_, offset) => syntheticChange(start + offset)),
    );
  }
  const published = (performance.now() - started) / 1000;
  await producer.disconnect();
  let readable = 0;
  let committed = 0;
  let storedByStop = false;
  for (;;) {
    if (readable === 0 && handed >= changeCount) readable = (performance.now() - started) / 1000;
    const caughtUp = await consumerGroupCaughtUp(kafka, `${groupId}.balance-changes`, benchTopics.balanceChanges.name).then(
      () => true,
      () => false,
    );
    if (caughtUp) {
      committed = (performance.now() - started) / 1000;
      break;
    }
    // A last batch under 1,000 rows waits for the store's five-minute round (readable meanwhile);
    // stopping the consumer stores it now, as a shutdown would, so the run need not wait for it.
    if (readable > 0 && !stopped && performance.now() - started > (readable + 15) * 1000) {
      storedByStop = true;
      await consumer.stop();
      stopped = true;
    }
    await sleep(250);
  }
  const rows = await countRows();
  console.log(
    `published in ${published.toFixed(1)} s; readable by charts after ${readable.toFixed(1)} s; committed after ${committed.toFixed(1)} s${storedByStop ? ' (last rows stored by stopping the consumer)' : ''}`,
  );
  console.log(`ingest: ${Math.round(changeCount / committed)} changes/s; rows of the wallet in chart_balance_changes: ${rows}`);
  if (rows !== changeCount) throw new Error(`expected ${changeCount} rows, found ${rows}`);

  const results = [];
  const breakdown = [];
  for (const period of periods) {
    Object.assign(spent, none);
    const cold = await timed(() => chart(period));
    console.log(
      `${period}: cold ${round(cold.ms)} ms (firstActivity ${round(spent.firstActivity)}, changes ${round(spent.changes)}, SQL ${round(spent.sql)}, valuation ${round(spent.valuation)} ms)`,
    );
    if (period === 'max') check(cold.result);
    const callsBefore = await getPricesCalls();
    Object.assign(spent, none);
    const warm: number[] = [];
    for (let sample = 0; sample < samples; sample++) warm.push((await timed(() => chart(period))).ms);
    const calls = ((await getPricesCalls()) - callsBefore) / samples;
    const counts: number[] = [];
    for (let sample = 0; sample < samples; sample++) counts.push((await timed(countRows)).ms);
    const warmP50 = percentile(warm, 50);
    const countP50 = percentile(counts, 50);
    results.push({
      period,
      points: cold.result.points.length,
      'cold ms': round(cold.ms),
      'warm p50': round(warmP50),
      'warm p99': round(percentile(warm, 99)),
      'count() p50': round(countP50),
      ratio: Number((warmP50 / countP50).toFixed(1)),
      'target met (warm p50 < 50 ms)': warmP50 < 50,
    });
    breakdown.push({
      period,
      // Mean per warm request: SQL reads of the store (first change for max, the grouped sums) and
      // the valuation (token lookup and GetPrices calls); the rest is gRPC and the service itself.
      'firstActivity ms': round(spent.firstActivity / samples),
      'changes ms': round(spent.changes / samples),
      'SQL ms (all store queries)': round(spent.sql / samples),
      'valuation ms': round(spent.valuation / samples),
      'GetPrices calls': calls,
    });
  }
  console.table(results);
  console.log('where a warm request goes (mean ms per request, measured around the store and valuation calls):');
  console.table(breakdown);
} finally {
  if (!stopped) await consumer.stop().catch((error: unknown) => console.error('stopping the consumer failed', error));
  client.close();
  await server.shutdown(5_000);
  referenceData.close();
  positions.close();
  // The synthetic wallet's change token, the one key the bench wrote in the stack's key space.
  await changes.redis.del(`${process.env.REDIS_KEY_PREFIX ?? 'wallet-api'}:changes:wallet:charts:${wallet}`).catch(() => undefined);
  changes.close();
  await database.drop();
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: Object.values(benchTopics).map((spec) => spec.name) });
  await admin.deleteGroups([`${groupId}.balance-changes`, `${groupId}.rollbacks`]).catch(() => undefined);
  await admin.disconnect();
}

/** The max chart must carry value somewhere (the world's priced tokens), else the figures mean nothing. */
function check(result: WalletChart): void {
  const first = result.points[0]!;
  const last = result.points.at(-1)!;
  const nonZero = result.points.filter((point) => point.value !== 0).length;
  console.log(
    `max chart: ${result.points.length} points, ${nonZero} non-zero; first ${new Date(Number(first.timestamp) * 1000).toISOString()} ${first.value.toFixed(2)} usd, last ${new Date(Number(last.timestamp) * 1000).toISOString()} ${last.value.toFixed(2)} usd`,
  );
  if (nonZero === 0) throw new Error('every point of the max chart is 0: the assets have no price');
}
