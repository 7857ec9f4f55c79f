import { chartPeriods, type ChartPeriod } from '@wallet-api/core/charts';
import type { WalletChart } from '@wallet-api/core/proto/chart';
import { consumerGroupCaughtUp, eventually, setupKafka } from '@wallet-api/core/testing';
import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { readManifest, type Manifest } from '../../../devnet/src/manifest/index.js';
import { startPositionsHarness, type PositionsHarness } from '../../positions/test/setup-positions.js';
import { contextOf, createChartTruth, stepIndices, type ChartTruth, type TruthSelection } from './chart-truth.js';
import { startChartHarness, type ChartHarness } from './setup-chart.js';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { createPrisma } from '@wallet-api/core/db';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { createApp } from '../../gateway/src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../../gateway/src/auth/api-keys.js';
import { createResponseCache } from '../../gateway/src/cache/response-cache.js';
import { createBackends, type Backends } from '../../gateway/src/grpc/backends.js';
import { createWalletApiClient, type WalletApiClient } from '../../../clients/typescript/src/index.js';

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
const publicUrl = 'https://api.wallet.test';
const prisma = createPrisma(testConfig().DATABASE_URL);
let gatewayRedis: ReturnType<typeof connectChangeVersions> | undefined;
let backends: Backends;
let server: Server;
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
  const positions = await harness.startService();
  charts = await startChartHarness({
    topics: harness.topics,
    referenceData: harness.referenceData,
    versions: harness.changes.versions,
    storeEveryMs: 2_000,
    positionsAddress: positions.address,
  });
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
  await eventually(() => consumerGroupCaughtUp(kafka, `${charts.groupId}.blocks`, harness.topics.chainBlocks.name), 120_000);
}, 600_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  backends?.close();
  gatewayRedis?.close();
  await prisma.$disconnect();
  await charts?.close();
  await harness?.close();
});

describe('GetWalletChart over the test world', () => {
  test.each(chartPeriods.map((period) => [period]))(
    '%s: every sampled point equals chain balances times prices at its time',
    async (period: ChartPeriod) => {
      const random = seededRandom(chartPeriods.indexOf(period) + 1);
      let nonZero = 0;
      for (const chain of manifest.chains) {
        for (const { address } of chain.wallets.slice(0, walletsPerChain)) {
          const wallet = address.toLowerCase() as Address;
          const chart: WalletChart = await charts.chart({ context: contextOf(chain.id), addresses: [wallet], chainIds: [chain.id], period });
          const begin = Number(chart.beginAt);
          const end = Number(chart.endAt);
          const interval = (end - begin) / (chart.points.length - 1);
          expect(chart.points.map((point) => Number(point.timestamp))).toEqual(
            Array.from({ length: chart.points.length }, (_, index) => begin + index * interval),
          );
          expect(end % interval).toBe(0);
          if (period !== 'max') expect(chart.points.length).toBeGreaterThanOrEqual(289);
          expect(chart.points.length).toBeLessThanOrEqual(460);
          const sampled = new Set([
            0,
            chart.points.length - 1,
            ...stepIndices(chart, stepsPerChart),
            ...Array.from({ length: pointsPerChart - 2 }, () => Math.floor(random() * chart.points.length)),
          ]);
          nonZero += (await truths.get(chain.id)!.check(chart, wallet, sampled, `${chain.id} ${wallet} ${period}`)).nonZero;
        }
      }
      // The world's wallets hold priced assets over its days: a chart of zeros would prove nothing.
      if (period === 'max' || period === 'year' || period === '5years') expect(nonZero).toBeGreaterThan(0);
    },
    300_000,
  );
});

describe('protocol positions over time', () => {
  /** Per chain, the wallet holding the most kinds of protocol position at the world's end (pools and types). */
  const protocolWallets = new Map<string, Address>();
  /** Per chain, the chosen wallet's pools at the end, in spec 4.1's forms. */
  const poolsAtEnd = new Map<string, string[]>();

  beforeAll(async () => {
    for (const chain of manifest.chains) {
      let best: { wallet: Address; kinds: number; pools: string[] } | undefined;
      // The deployer is left out: anvil's genesis funded it, with no transfer a chart could see.
      for (const { address } of chain.wallets.filter((candidate) => candidate.address !== chain.deployer)) {
        const wallet = address.toLowerCase() as Address;
        const holdings = await truths.get(chain.id)!.holdingsAt(wallet, chain.endTimestamp);
        const kinds = new Set(holdings.map((holding) => `${holding.type}:${holding.pool}`)).size;
        const pools = [
          ...new Set(
            holdings
              .flatMap((holding) => [holding.pool, ...(holding.receipt.startsWith('nft:') ? [holding.receipt.slice(4)] : [])])
              .filter((pool) => pool !== ''),
          ),
        ];
        if (!best || kinds > best.kinds) best = { wallet, kinds, pools };
      }
      if (best && best.kinds > 0) {
        protocolWallets.set(chain.id, best.wallet);
        poolsAtEnd.set(chain.id, best.pools);
      }
    }
    // The world gives its wallets positions in its protocols: without them nothing here would be proven.
    expect(protocolWallets.size).toBe(manifest.chains.length);
  }, 120_000);

  async function checkChart(chainId: string, period: ChartPeriod, selection: TruthSelection, seed: number): Promise<{ nonZero: number; chart: WalletChart }> {
    const wallet = protocolWallets.get(chainId)!;
    const chart = await charts.chart({
      context: contextOf(chainId),
      addresses: [wallet],
      chainIds: [chainId],
      period,
      positions: selection.positions,
      poolAddresses: selection.poolAddresses ?? [],
      excludePoolAddresses: selection.excludePoolAddresses ?? [],
    });
    const random = seededRandom(seed);
    const sampled = new Set([
      0,
      chart.points.length - 1,
      ...stepIndices(chart, stepsPerChart),
      ...Array.from({ length: pointsPerChart - 2 }, () => Math.floor(random() * chart.points.length)),
    ]);
    const { nonZero } = await truths.get(chainId)!.check(chart, wallet, sampled, `${chainId} ${wallet} ${period} ${JSON.stringify(selection)}`, selection);
    return { nonZero, chart };
  }

  test.each(chartPeriods.map((period) => [period]))(
    '%s, only_complex: every sampled point equals the truth readers at its block times prices then',
    async (period: ChartPeriod) => {
      let nonZero = 0;
      for (const chain of manifest.chains)
        nonZero += (await checkChart(chain.id, period, { positions: 'only_complex' }, chartPeriods.indexOf(period) + 20)).nonZero;
      if (period === 'max' || period === 'year') expect(nonZero).toBeGreaterThan(0);
    },
    300_000,
  );

  test.each([['max'], ['month'], ['day']] as const)(
    '%s, no_filter: simple balances and protocol positions, each share token counted once',
    async (period) => {
      let nonZero = 0;
      for (const chain of manifest.chains) nonZero += (await checkChart(chain.id, period, { positions: 'no_filter' }, 40)).nonZero;
      if (period === 'max') expect(nonZero).toBeGreaterThan(0);
    },
    300_000,
  );

  test('pool filters: one pool alone, every position but it, and a pool the wallet never had', async () => {
    const forms = new Set<string>();
    for (const chain of manifest.chains) {
      for (const pool of poolsAtEnd.get(chain.id)!) {
        forms.add(pool.includes(':') ? 'nft' : 'address');
        const only = await checkChart(chain.id, 'max', { positions: 'no_filter', poolAddresses: [pool] }, 50);
        expect(only.nonZero).toBeGreaterThan(0);
        await checkChart(chain.id, 'max', { positions: 'only_complex', excludePoolAddresses: [pool] }, 51);
      }
      const unknown = await charts.chart({
        context: contextOf(chain.id),
        addresses: [protocolWallets.get(chain.id)!],
        chainIds: [chain.id],
        period: 'max',
        positions: 'no_filter',
        poolAddresses: ['0x00000000000000000000000000000000000000aa'],
      });
      expect(unknown.points.every((point) => point.value === 0)).toBe(true);
    }
    // Pools named by contract (V2 pair, V3 pool, vault) and by LP NFT.
    expect([...forms].sort()).toEqual(['address', 'nft']);
  }, 300_000);
});

describe('GET /v1/wallets/{address}/charts/{chart_period} through the gateway', () => {
  let baseUrl: string;
  let authorization: string;
  // The typed client (@wallet-api/client) for the calls the served OpenAPI document must describe.
  let api: WalletApiClient;

  beforeAll(async () => {
    backends = createBackends({
      referenceData: harness.referenceDataAddress,
      indexer: harness.referenceDataAddress,
      positions: harness.referenceDataAddress,
      chart: charts.address,
    });
    gatewayRedis = connectChangeVersions(testConfig().REDIS_URL, { keyPrefix: harness.changes.keyPrefix, onError: () => undefined });
    const changes = gatewayRedis.versions;
    const app = createApp({
      lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
      redis: gatewayRedis.redis,
      backends,
      publicUrl,
      rateLimits: { perSecond: 100_000, burst: 100_000 },
      logger: testLogger,
      checkResponses: true,
      changes,
      responseCache: createResponseCache({ versions: changes, logger: testLogger, maxBytes: 16 * 1024 * 1024, maxAgeMs: 60_000 }),
    });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { key } = await createOrganizationKey(prisma, { org: uniqueName('chart-world'), roles: [], addons: [] });
    authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    api = createWalletApiClient({ baseUrl, apiKey: key });
  });

  async function get(path: string): Promise<{ status: number; body: any }> {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization } });
    return { status: response.status, body: await response.json() };
  }

  test("the wallet and wallet-set routes serve the service's chart as spec 2.4 resources, from the cache when asked again", async () => {
    const chain = manifest.chains.find((candidate) => candidate.id === 'ethereum')!;
    const wallet = chain.wallets[0]!.address;
    const lower = wallet.toLowerCase();
    const path = `/v1/wallets/${wallet}/charts/year?filter[chain_ids]=ethereum`;
    const first = await api.GET('/v1/wallets/{address}/charts/{chart_period}', {
      params: { path: { address: wallet, chart_period: 'year' }, query: { 'filter[chain_ids]': 'ethereum' } },
    });
    expect(first.response.status).toBe(200);
    const expected = await charts.chart({ context: contextOf('ethereum'), addresses: [lower], chainIds: ['ethereum'], period: 'year' });
    expect(first.data).toEqual({
      links: { self: `${publicUrl}${path}` },
      data: {
        type: 'wallet_chart',
        id: `${lower}-year`,
        attributes: {
          begin_at: new Date(Number(expected.beginAt) * 1000).toISOString(),
          end_at: new Date(Number(expected.endAt) * 1000).toISOString(),
          points: expected.points.map((point) => [Number(point.timestamp), point.value]),
        },
      },
    });
    expect((await get(path)).body).toEqual(first.data);
    const set = await api.GET('/v1/wallet-sets/charts/{chart_period}', {
      params: { path: { chart_period: 'year' }, query: { addresses: wallet, 'filter[chain_ids]': 'ethereum' } },
    });
    expect(set.response.status).toBe(200);
    expect(set.data!.data.id).toBe(`${lower}-year`);
    expect(set.data!.data.attributes).toEqual(first.data!.data.attributes);
    // Without a chain filter every mainnet chain that qualifies is read: the wallet has no history on the others.
    const everyChain = await get(`/v1/wallets/${wallet}/charts/year`);
    expect(everyChain.body.data.attributes.points).toEqual(first.data!.data.attributes.points);
  });

  test.each([
    ['/charts/decade', 'path parameter chart_period: must be one of hour, day, week, month, 3months, 6months, year, 5years, max'],
    ['/charts/day?filter[chain_ids]=sepolia', 'parameter filter[chain_ids]: chain sepolia is not supported'],
    [
      '/charts/day?filter[fungible_ids]=eth&filter[exclude_fungible_ids]=usdc',
      'parameter filter[fungible_ids]: cannot be combined with filter[exclude_fungible_ids]; send one of them',
    ],
    [
      '/charts/day?filter[positions]=only_simple&filter[pool_addresses]=0x0000000000000000000000000000000000000001',
      'parameter filter[pool_addresses]: cannot be combined with filter[positions]=only_simple, which charts no protocol positions',
    ],
  ])('%s: 400 %s', async (suffix, detail) => {
    const wallet = manifest.chains[0]!.wallets[0]!.address;
    const { status, body } = await get(`/v1/wallets/${wallet}${suffix}`);
    expect({ status, body }).toEqual({ status: 400, body: { errors: [{ title: expect.any(String), detail }] } });
  });

  test('an address the API does not serve is refused', async () => {
    const token = (manifest.chains[0]!.protocols.tokens as { tokens: { address: string }[] }).tokens[0]!.address;
    const untracked = await get(`/v1/wallets/${token}/charts/day`);
    expect(untracked.status).toBe(400);
  });

  test('protocol positions: the filters reach the service as rule 3 settles them, pool values in any case', async () => {
    const chain = manifest.chains.find((candidate) => candidate.id === 'ethereum')!;
    const wallet = chain.wallets[0]!.address;
    const lower = wallet.toLowerCase();
    const service = (request: { positions: string; poolAddresses?: string[] }) =>
      charts.chart({ context: contextOf('ethereum'), addresses: [lower], chainIds: ['ethereum'], period: 'year', poolAddresses: [], ...request });
    const complex = await get(`/v1/wallets/${wallet}/charts/year?filter[chain_ids]=ethereum&filter[positions]=only_complex`);
    expect(complex.status).toBe(200);
    expect(complex.body.data.attributes.points).toEqual(
      (await service({ positions: 'only_complex' })).points.map((point) => [Number(point.timestamp), point.value]),
    );
    const pair = (chain.protocols.uniswap as { v2: { pairs: { address: string }[] } }).v2.pairs[0]!.address;
    const pooled = await get(`/v1/wallets/${wallet}/charts/year?filter[chain_ids]=ethereum&filter[pool_addresses]=${pair.toUpperCase().replace('0X', '0x')}`);
    expect(pooled.status).toBe(200);
    expect(pooled.body.data.attributes.points).toEqual(
      (await service({ positions: 'no_filter', poolAddresses: [pair.toLowerCase()] })).points.map((point) => [Number(point.timestamp), point.value]),
    );
  });
});
