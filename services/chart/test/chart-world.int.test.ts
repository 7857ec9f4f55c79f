import { chartPeriods, type ChartPeriod } from '@wallet-api/core/charts';
import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import type { WalletChart } from '@wallet-api/core/proto/chart';
import { consumerGroupCaughtUp, eventually, setupKafka } from '@wallet-api/core/testing';
import { createPublicClient, formatUnits, http, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../devnet/src/manifest/index.js';
import { nativeBalance, tokenBalances } from '../../devnet/src/truth/tokens.js';
import { worldTokens } from '../../devnet/src/truth/index.js';
import { startPositionsHarness, type PositionsHarness } from '../../positions/test/setup-positions.js';
import { startChartHarness, type ChartHarness } from './setup-chart.js';

// Balance charts over the test world (chain -> indexer -> Kafka -> chart consumer -> ClickHouse ->
// gRPC), held against the chain: at sampled points of every period, the served value equals the
// wallet's native and ERC-20 balances read with viem at the last block at or before the point's
// time, times reference-data's price of each token at that time. The shared chains are only read.

const testnets = new Set(['sepolia']);
const walletsPerChain = 2;
const pointsPerChart = 30;

let manifest: Manifest;
let harness: PositionsHarness;
let charts: ChartHarness;
const kafka = setupKafka('chart-world-test');
const clients = new Map<string, PublicClient>();
/** Per chain, every block's timestamp by number, up to the head read before the test. */
const blockTimes = new Map<string, number[]>();

const contextOf = (chainId: string) => ({ organizationId: '', roles: [], addons: [], network: testnets.has(chainId) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET });

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

/** The newest block at or before `time` (unix seconds), undefined before genesis. */
function blockAt(chainId: string, time: number): bigint | undefined {
  const times = blockTimes.get(chainId)!;
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! <= time) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : BigInt(low - 1);
}

/** The wallet's value at `time` from the chain's balances then and reference-data's prices then. */
async function expectedValue(chain: ChainWorld, wallet: Address, time: number, spam: Set<string>): Promise<number> {
  const block = blockAt(chain.id, time);
  if (block === undefined) return 0;
  const client = clients.get(chain.id)!;
  const [native, tokens] = await Promise.all([nativeBalance(client, wallet, block), tokenBalances(client, worldTokens(chain), wallet, block)]);
  const held = [
    { address: '', decimals: 18, balance: native },
    ...tokens.filter((token) => !spam.has(token.address.toLowerCase())).map((token) => ({ address: token.address.toLowerCase(), decimals: token.decimals, balance: token.balance })),
  ].filter((entry) => entry.balance !== 0n);
  if (held.length === 0) return 0;
  const { prices } = await unary(harness.referenceData, harness.referenceData.getPrices, {
    context: contextOf(chain.id),
    currency: 'usd',
    queries: held.map((entry) => ({ token: { chainId: chain.id, address: entry.address }, timestamp: String(time) })),
  });
  return held.reduce((sum, entry, index) => sum + Number(formatUnits(entry.balance, entry.decimals)) * (prices[index]?.price ?? 0), 0);
}

function expectClose(served: number, expected: number, label: string): void {
  const tolerance = 1e-9 * Math.max(Math.abs(expected), 1e-12);
  if (Math.abs(served - expected) > tolerance) throw new Error(`${label}: served ${served}, chain and prices say ${expected}`);
}

beforeAll(async () => {
  manifest = await readManifest();
  harness = await startPositionsHarness();
  charts = await startChartHarness({ topics: harness.topics, referenceData: harness.referenceData, versions: harness.changes.versions, storeEveryMs: 2_000 });
  const heads = new Map<string, bigint>();
  for (const chain of manifest.chains) {
    harness.index({ chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
    const client: PublicClient = createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 200 } }), cacheTime: 0 });
    clients.set(chain.id, client);
    const head = await client.getBlockNumber();
    heads.set(chain.id, head);
    const blocks = await Promise.all(Array.from({ length: Number(head) + 1 }, (_, number) => client.getBlock({ blockNumber: BigInt(number) })));
    blockTimes.set(chain.id, blocks.map((block) => Number(block.timestamp)));
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
      const tokens = await unary(harness.referenceData, harness.referenceData.getTokens, {
        context: contextOf(chain.id),
        tokens: worldTokens(chain).tokens.map((token) => ({ chainId: chain.id, address: token.address.toLowerCase() })),
      });
      const spam = new Set(tokens.tokens.filter((token) => token.isSpam).map((token) => token.address));
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
        const sampled = new Set([0, chart.points.length - 1, ...Array.from({ length: pointsPerChart - 2 }, () => Math.floor(random() * chart.points.length))]);
        for (const index of sampled) {
          const point = chart.points[index]!;
          const expected = await expectedValue(chain, wallet, Number(point.timestamp), spam);
          if (expected > 0) nonZero++;
          expectClose(point.value, expected, `${chain.id} ${wallet} ${period} point ${index} (${point.timestamp})`);
        }
      }
    }
    // The world's wallets hold priced assets over its days: a chart of zeros would prove nothing.
    if (period === 'max' || period === 'year' || period === '5years') expect(nonZero).toBeGreaterThan(0);
  }, 300_000);
});
