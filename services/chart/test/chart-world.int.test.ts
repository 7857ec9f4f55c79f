import { chartPeriods, type ChartPeriod } from '@wallet-api/core/charts';
import type { WalletChart } from '@wallet-api/core/proto/chart';
import { consumerGroupCaughtUp, eventually, setupKafka } from '@wallet-api/core/testing';
import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { readManifest, type Manifest } from '../../devnet/src/manifest/index.js';
import { startPositionsHarness, type PositionsHarness } from '../../positions/test/setup-positions.js';
import { contextOf, createChartTruth, stepIndices, type ChartTruth } from './chart-truth.js';
import { startChartHarness, type ChartHarness } from './setup-chart.js';

// Balance charts over the test world (chain -> indexer -> Kafka -> chart consumer -> ClickHouse ->
// gRPC), held against the chain: at sampled points of every period, the served value equals the
// wallet's native and ERC-20 balances read with viem at the last block at or before the point's
// time, times reference-data's price of each token at that time. The shared chains are only read.

const walletsPerChain = 2;
const pointsPerChart = 30;
/** Changes of value per chart whose two sides are checked. */
const stepsPerChart = 10;

let manifest: Manifest;
let harness: PositionsHarness;
let charts: ChartHarness;
const kafka = setupKafka('chart-world-test');
const truths = new Map<string, ChartTruth>();

/** A fixed sequence of numbers in [0, 1): the sampled points are the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

beforeAll(async () => {
  manifest = await readManifest();
  harness = await startPositionsHarness();
  charts = await startChartHarness({ topics: harness.topics, referenceData: harness.referenceData, versions: harness.changes.versions, storeEveryMs: 2_000 });
  const heads = new Map<string, bigint>();
  for (const chain of manifest.chains) {
    harness.index({ chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
    const client: PublicClient = createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 200 } }), cacheTime: 0 });
    heads.set(chain.id, await client.getBlockNumber());
    truths.set(chain.id, await createChartTruth({ chain, client, referenceData: harness.referenceData }));
  }
  for (const [chainId, head] of heads) {
    await eventually(async () => {
      const checkpoint = await harness.database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number: head } } });
      expect(checkpoint).not.toBeNull();
    }, 240_000);
  }
  await eventually(() => consumerGroupCaughtUp(kafka, `${harness.suffix}.prices.pool-events`, harness.topics.poolEvents.name), 120_000);
  await eventually(() => consumerGroupCaughtUp(kafka, `${charts.groupId}.balance-changes`, harness.topics.balanceChanges.name), 120_000);
}, 600_000);

afterAll(async () => {
  await charts?.close();
  await harness?.close();
});

describe('GetWalletChart over the test world', () => {
  test.each(chartPeriods.map((period) => [period]))('%s: every sampled point equals chain balances times prices at its time', async (period: ChartPeriod) => {
    const random = seededRandom(chartPeriods.indexOf(period) + 1);
    let nonZero = 0;
    for (const chain of manifest.chains) {
      for (const { address } of chain.wallets.slice(0, walletsPerChain)) {
        const wallet = address.toLowerCase() as Address;
        const chart: WalletChart = await charts.chart({ context: contextOf(chain.id), addresses: [wallet], chainIds: [chain.id], period });
        const begin = Number(chart.beginAt);
        const end = Number(chart.endAt);
        const interval = (end - begin) / (chart.points.length - 1);
        expect(chart.points.map((point) => Number(point.timestamp))).toEqual(Array.from({ length: chart.points.length }, (_, index) => begin + index * interval));
        expect(end % interval).toBe(0);
        if (period !== 'max') expect(chart.points.length).toBeGreaterThanOrEqual(289);
        expect(chart.points.length).toBeLessThanOrEqual(460);
        const sampled = new Set([0, chart.points.length - 1, ...stepIndices(chart, stepsPerChart), ...Array.from({ length: pointsPerChart - 2 }, () => Math.floor(random() * chart.points.length))]);
        nonZero += (await truths.get(chain.id)!.check(chart, wallet, sampled, `${chain.id} ${wallet} ${period}`)).nonZero;
      }
    }
    // The world's wallets hold priced assets over its days: a chart of zeros would prove nothing.
    if (period === 'max' || period === 'year' || period === '5years') expect(nonZero).toBeGreaterThan(0);
  }, 300_000);
});
