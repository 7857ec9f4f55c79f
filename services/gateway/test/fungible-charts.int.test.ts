import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { fixedPeriods, type ChartPeriod } from '@wallet-api/core/charts';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { createProducer, ensureTopics, type MessageProducer, type TopicSpec } from '@wallet-api/core/kafka';
import { Registry as MetricsRegistry } from '@wallet-api/core/metrics';
import {
  consumerGroupCaughtUp,
  eventually,
  setupChangeVersions,
  setupClickHouseDatabase,
  setupKafka,
  setupPostgresDatabase,
  testConfig,
  testLogger,
  uniqueName,
  type ClickHouseDatabase,
  type PostgresDatabase,
} from '@wallet-api/core/testing';
import { createPublicClient, http, type PublicClient } from 'viem';
import { readManifest, type Manifest } from '../../../devnet/src/manifest/index.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/index.js';
import { worldTokens } from '../../../devnet/src/truth/index.js';
import { createIndexerMetrics } from '../../indexer/src/pipeline/indexer-metrics.js';
import { pipelineTopics } from '../../indexer/test/pipeline-topics.js';
import { runChainIndexer } from '../../indexer/test/setup-indexing.js';
import { loadChainsConfig, type ChainConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createPriceConsumer, type PriceConsumer } from '../../reference-data/src/consume/price-consumer.js';
import { createChainPriceTracker, createReferenceDataDomain } from '../../reference-data/src/domain.js';
import { createFungibleCharts } from '../../reference-data/src/fungible-charts/fungible-charts.js';
import { fungibleChartsServiceOver } from '../../reference-data/src/grpc/fungible-charts-service.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { loadFxTable, type FxTable } from '../../reference-data/src/prices/currencies.js';
import type { PriceOracle } from '../../reference-data/src/prices/price-oracle.js';
import { loadRegistryConfig, type RegistryConfig } from '../../reference-data/src/registry/registry-config.js';
import { createRegistry } from '../../reference-data/src/registry/registry.js';
import { createFirstPriceStore } from '../../reference-data/src/store/first-price-store.js';
import { expectedPrices, readPools, relativeError, routingOf, uniswapPools } from '../../reference-data/test/price-expectations.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';

// The fungible chart endpoints over reference-data's real price pipeline fed by the shared test
// world (chain -> indexer -> Kafka topics of the test's own -> price consumer -> a ClickHouse
// database of its own -> FungibleCharts gRPC -> gateway). Every price is held against the chain:
// the pools' states read with viem at the block that was newest at the point's time, through the
// rule the price tests write out independently (price-expectations). The shared chains are only read.

const publicUrl = 'https://api.wallet.test';
const referenceConfig = new URL('../../reference-data/config/', import.meta.url).pathname;
const devnetRegistryFile = new URL('../../../.data/devnet/registry.json', import.meta.url).pathname;
const tolerance = 1e-9;

let manifest: Manifest;
let registry: RegistryConfig;
let fx: FxTable;
let chains: ChainConfig[];
let database: PostgresDatabase;
let clickhouse: ClickHouseDatabase;
let changes: ReturnType<typeof setupChangeVersions>;
let oracle: PriceOracle;
let priceConsumer: PriceConsumer;
let referenceGrpc: GrpcServer;
let producer: MessageProducer;
let backends: Backends;
let server: Server;
let baseUrl: string;
let authorization: string;
const stops = new Set<() => Promise<void>>();
const prisma = createPrisma(testConfig().DATABASE_URL);
const redis = new Redis(testConfig().REDIS_URL);
const kafka = setupKafka('fungible-charts-test');
// Also a PostgreSQL database name: lowercase letters, digits and underscores.
const suffix = uniqueName('fungible_charts');
const topics = pipelineTopics(suffix);

/** Each chain's blocks' timestamps, by number: "the block newest at time t". */
const blockTimes = new Map<string, number[]>();
const clients = new Map<string, PublicClient>();

const world = (chainId: string) => manifest.chains.find((chain) => chain.id === chainId)!;

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization, ...headers } });
  return { status: response.status, body: await response.json() };
}

async function chart(path: string, headers: Record<string, string> = {}): Promise<any> {
  const { status, body } = await get(path, headers);
  if (status !== 200) throw new Error(`GET ${path}: ${status} ${JSON.stringify(body)}`);
  expect(body.links).toEqual({ self: `${publicUrl}${path}` });
  return body.data;
}

/** The number of the chain's newest block at `time`; undefined before its first. */
function blockAt(chainId: string, time: number): number | undefined {
  const times = blockTimes.get(chainId)!;
  let found: number | undefined;
  for (const [number, timestamp] of times.entries()) {
    if (timestamp <= time) found = number;
    else break;
  }
  return found;
}

/** The USD price of `address` ('' for the native asset) on the chain at `time`, from its pools' states then; undefined when it has none. */
async function truthAt(chainId: string, address: string, time: number): Promise<number | undefined> {
  const number = blockAt(chainId, time);
  if (number === undefined) return undefined;
  const chain = world(chainId);
  const routing = routingOf(registry, chainId, worldTokens(chain).tokens);
  const pools = await readPools(clients.get(chainId)!, uniswapPools(chain.protocols.uniswap as UniswapManifest), BigInt(number));
  return expectedPrices(pools, routing).get(address === '' ? routing.weth : address.toLowerCase());
}

/** A registry fungible's address on a chain. */
function addressOf(fungibleId: string, chainId: string): string {
  return registry.tokens.find((entry) => entry.fungible_id === fungibleId)!.implementations.find((ref) => ref.chain_id === chainId)!.address;
}

/** Spec 4.1's window of the chart as served: begin and end on the grid, every point on it and inside, ends where they should be. */
function expectWindow(
  data: any,
  period: ChartPeriod,
  requestedAt: number,
  answeredAt: number,
): { beginAt: number; endAt: number; interval: number; points: [number, number][] } {
  const beginAt = Date.parse(data.attributes.begin_at) / 1000;
  const endAt = Date.parse(data.attributes.end_at) / 1000;
  const points = data.attributes.points as [number, number][];
  // `max`'s interval follows from the history's length: whole days, the step between its points.
  const interval = period === 'max' ? points[1]![0] - points[0]![0] : fixedPeriods[period].intervalSeconds;
  expect(endAt % interval).toBe(0);
  expect(beginAt % interval).toBe(0);
  // The newest grid time at the moment the chart was computed.
  expect(endAt).toBeGreaterThanOrEqual(Math.floor(requestedAt / interval) * interval);
  expect(endAt).toBeLessThanOrEqual(answeredAt);
  if (period !== 'max') expect(endAt - beginAt).toBe(Math.ceil(fixedPeriods[period].windowSeconds / interval) * interval);
  for (const [time, price] of points) {
    expect((time - beginAt) % interval).toBe(0);
    expect(time).toBeGreaterThanOrEqual(beginAt);
    expect(time).toBeLessThanOrEqual(endAt);
    expect(Number.isFinite(price)).toBe(true);
  }
  const times = points.map(([time]) => time);
  expect([...times].sort((a, b) => a - b)).toEqual(times);
  expect(new Set(times).size).toBe(times.length);
  return { beginAt, endAt, interval, points };
}

/** decisions.md: stats over the points served. */
function expectStats(data: any): void {
  const prices = (data.attributes.points as [number, number][]).map(([, price]) => price);
  const { stats } = data.attributes;
  expect(stats.first).toBe(prices[0]);
  expect(stats.last).toBe(prices.at(-1));
  expect(stats.min).toBe(Math.min(...prices));
  expect(stats.max).toBe(Math.max(...prices));
  expect(relativeError(stats.avg, prices.reduce((sum, price) => sum + price, 0) / prices.length)).toBeLessThan(tolerance);
}

/** Up to `count` points spread over the series, the first and last among them. */
function sample<T>(points: readonly T[], count: number): T[] {
  if (points.length <= count) return [...points];
  const step = (points.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, index) => points[Math.round(index * step)]!);
}

beforeAll(async () => {
  manifest = await readManifest();
  await ensureTopics(kafka, Object.values(topics) as TopicSpec<unknown>[]);
  database = await setupPostgresDatabase(suffix);
  clickhouse = await setupClickHouseDatabase(suffix);
  changes = setupChangeVersions();
  chains = await loadChainsConfig(`${referenceConfig}chains.json`);
  registry = await loadRegistryConfig([`${referenceConfig}registry.json`, devnetRegistryFile]);
  fx = await loadFxTable(`${referenceConfig}fx-rates.json`);
  const domain = createReferenceDataDomain({
    chains,
    registry,
    prisma: database.prisma,
    logger: testLogger,
    prices: { clickhouse: clickhouse.clickhouse, fx, versions: changes.versions, currencyChainId: 'ethereum' },
  });
  oracle = domain.prices!;
  priceConsumer = createPriceConsumer({
    kafka,
    tracker: createChainPriceTracker({ chains, registry: domain.registry, tokens: domain.tokens, clickhouse: clickhouse.clickhouse, logger: testLogger }),
    versions: changes.versions,
    prepareLookups: domain.prepareForPriceMove!,
    logger: testLogger,
    groupId: `${suffix}.prices`,
    topics: { poolEvents: topics.poolEvents, chainRollbacks: topics.chainRollbacks },
  });
  await priceConsumer.start();
  referenceGrpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      referenceDataService(createChainRegistry(chains), domain),
      fungibleChartsServiceOver({ chains, domain, clickhouse: clickhouse.clickhouse, versions: changes.versions }),
    ],
    logger: testLogger,
  });
  producer = await createProducer(kafka);
  const metrics = createIndexerMetrics(new MetricsRegistry());
  const heads = new Map<string, bigint>();
  for (const chain of manifest.chains) {
    const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }) as PublicClient;
    clients.set(chain.id, client);
    const head = await client.getBlockNumber();
    heads.set(chain.id, head);
    const times: number[] = [];
    for (let number = 0n; number <= head; number++) times.push(Number((await client.getBlock({ blockNumber: number })).timestamp));
    blockTimes.set(chain.id, times);
    runChainIndexer({ prisma: database.prisma, producer, topics, metrics, stops, chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  }

  const address = `127.0.0.1:${referenceGrpc.port}`;
  backends = createBackends({ referenceData: address, indexer: address, positions: address });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl,
    rateLimits: { perSecond: 100_000, burst: 100_000 },
    logger: testLogger,
    checkResponses: true,
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('fungible-charts'), roles: [], addons: [] });
  authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

  // Charts are compared with the chain once every block up to the heads is indexed and every pool event folded.
  for (const [chainId, head] of heads) {
    await eventually(async () => {
      const checkpoint = await database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number: head } } });
      expect(checkpoint).not.toBeNull();
    }, 240_000);
  }
  await eventually(() => consumerGroupCaughtUp(kafka, `${suffix}.prices.pool-events`, topics.poolEvents.name), 120_000);
}, 600_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  backends?.close();
  for (const stop of [...stops]) await stop();
  await producer?.disconnect();
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: Object.values(topics).map((spec) => spec.name) }).catch(() => undefined);
  await admin.disconnect();
  await priceConsumer?.stop();
  await referenceGrpc?.shutdown(1_000);
  changes?.close();
  await clickhouse?.drop();
  await database?.drop();
  redis.disconnect();
  await prisma.$disconnect();
});

describe('fungible charts against the chain', () => {
  // Testnet has one chain with pricing (sepolia): the one price is that chain's, exactly.
  const testnet = { 'X-Env': 'testnet' };

  test.each(['day', 'week', 'month', 'max'] as const)(
    "%s: USDC, ETH, WETH and GOV on testnet: points on the grid, in range, each sampled price the pools' price at its time; stats over the points",
    async (period) => {
      for (const [fungibleId, address] of [
        ['usdc', addressOf('usdc', 'sepolia')],
        ['eth', ''],
        ['weth', addressOf('weth', 'sepolia')],
        ['gov', addressOf('gov', 'sepolia')],
      ] as const) {
        const requestedAt = Math.floor(Date.now() / 1000);
        const data = await chart(`/v1/fungibles/${fungibleId}/charts/${period}`, testnet);
        const { beginAt, endAt, interval, points } = expectWindow(data, period, requestedAt, Math.floor(Date.now() / 1000));
        expect({ id: data.id, type: data.type }).toEqual({ id: `${fungibleId}-${period}`, type: 'fungible_charts' });
        expect(data.relationships.fungible.data).toEqual({ type: 'fungibles', id: fungibleId });
        const slots = (endAt - beginAt) / interval + 1;
        if (period === 'max') {
          // About 400 intervals of whole days over the history: the world's ~15 months give one or two days each.
          expect(interval % 86_400).toBe(0);
          expect(slots).toBeGreaterThanOrEqual(200);
          expect(slots).toBeLessThanOrEqual(402);
        } else {
          expect(slots).toBeGreaterThanOrEqual(289);
          expect(slots).toBeLessThanOrEqual(460);
        }
        expect(points.length).toBeGreaterThan(0);
        expectStats(data);
        // Every point from the first priced one on has its price (the chain keeps its pools), and those before have none on the chain.
        expect(points.length).toBe((endAt - points[0]![0]) / interval + 1);
        const before = points[0]![0] - interval;
        // A stablecoin is 1 on the chain at any block: its points begin with its chain's price history instead (the price consumer's first day mark).
        if (before >= beginAt && fungibleId !== 'usdc')
          expect({ fungibleId, before, price: await truthAt('sepolia', address, before) }).toEqual({ fungibleId, before, price: undefined });
        for (const [time, price] of sample(points, 8)) {
          const expected = await truthAt('sepolia', address, time);
          expect({ fungibleId, time, close: expected !== undefined && relativeError(price, expected) <= tolerance }).toEqual({ fungibleId, time, close: true });
        }
      }
    },
    240_000,
  );

  test("mainnet: ETH is one series on ethereum and base, by id, by either chain alone and as WETH; each sampled price lies between the chains' own pool prices", async () => {
    const byId = await chart('/v1/fungibles/eth/charts/max');
    const onEthereum = await chart('/v1/fungibles/by-implementation/charts/max?implementation=ethereum');
    const onBase = await chart('/v1/fungibles/by-implementation/charts/max?implementation=base');
    const wrapped = await chart(`/v1/fungibles/weth/charts/max`);
    const wrappedOnBase = await chart(
      `/v1/fungibles/by-implementation/charts/max?implementation=base:${addressOf('weth', 'base').toUpperCase().replace('0X', '0x')}`,
    );
    expect(onEthereum.id).toBe('eth-max');
    expect(onBase.id).toBe('eth-max');
    expect(wrappedOnBase.id).toBe('weth-max');
    expect(onEthereum.attributes).toEqual(byId.attributes);
    expect(onBase.attributes).toEqual(byId.attributes);
    expect(wrappedOnBase.attributes).toEqual(wrapped.attributes);
    const points = byId.attributes.points as [number, number][];
    expect(points.length).toBeGreaterThan(100);
    const wrappedAt = new Map(wrapped.attributes.points as [number, number][]);
    expect(wrapped.attributes.points.length).toBe(points.length);
    for (const [time, price] of points)
      expect({ time, price, wrapped: wrappedAt.get(time), close: relativeError(price, wrappedAt.get(time) ?? NaN) <= tolerance }).toEqual({
        time,
        price,
        wrapped: wrappedAt.get(time),
        close: true,
      });
    // The one price is the consensus of the chains' prices: never outside them.
    for (const [time, price] of sample(points, 8)) {
      const [ethereum, base] = await Promise.all([truthAt('ethereum', '', time), truthAt('base', '', time)]);
      const known = [ethereum, base].filter((value): value is number => value !== undefined);
      expect(known.length).toBeGreaterThan(0);
      const inside = price >= Math.min(...known) * (1 - tolerance) && price <= Math.max(...known) * (1 + tolerance);
      expect({ time, price, known, inside }).toEqual({ time, price, known, inside: true });
    }
  }, 240_000);

  test("currencies: eur through the FX table, eth as the price over ether's at the same point", async () => {
    const [usd, eur, inEth, ether] = await Promise.all(
      [
        '/v1/fungibles/gov/charts/month',
        '/v1/fungibles/gov/charts/month?currency=eur',
        '/v1/fungibles/gov/charts/month?currency=eth',
        '/v1/fungibles/eth/charts/month',
      ].map((path) => chart(path)),
    );
    const byTime = (data: any) => new Map(data.attributes.points as [number, number][]);
    const [eurAt, ethAt, etherAt] = [byTime(eur), byTime(inEth), byTime(ether)];
    expect(usd.attributes.points.length).toBeGreaterThan(0);
    for (const [time, price] of usd.attributes.points as [number, number][]) {
      expect(relativeError(eurAt.get(time)!, price * fx.rates.eur!)).toBeLessThan(tolerance);
      expect(relativeError(ethAt.get(time)!, price / etherAt.get(time)!)).toBeLessThan(tolerance);
    }
  }, 120_000);
});

describe('fungible chart errors', () => {
  const expectError = async (path: string, status: number, mentions: string, headers: Record<string, string> = {}) => {
    const response = await get(path, headers);
    expect({ path, status: response.status }).toEqual({ path, status });
    expect(response.body.errors).toHaveLength(1);
    expect(typeof response.body.errors[0].title).toBe('string');
    expect({ path, detail: response.body.errors[0].detail }).toEqual({ path, detail: expect.stringContaining(mentions) });
  };

  test('400 for a bad period, currency, X-Env, fungible id or implementation form, naming the parameter', async () => {
    await expectError('/v1/fungibles/eth/charts/2days', 400, 'chart_period');
    await expectError('/v1/fungibles/by-implementation/charts/decade?implementation=ethereum', 400, 'chart_period');
    await expectError('/v1/fungibles/eth/charts/day?currency=xau', 400, 'currency');
    await expectError('/v1/fungibles/by-implementation/charts/day?implementation=ethereum&currency=', 400, 'currency');
    await expectError('/v1/fungibles/eth/charts/day', 400, 'X-Env', { 'X-Env': 'mainnet' });
    await expectError(`/v1/fungibles/${'x'.repeat(45)}/charts/day`, 400, 'fungible_id');
    await expectError('/v1/fungibles/by-implementation/charts/day', 400, 'implementation');
    for (const form of ['', 'ethereum:', 'ethereum:0x1234', ':0x31149fa789dbf4da89356bd966d716b5c7d12497', 'eth%20ereum']) {
      await expectError(`/v1/fungibles/by-implementation/charts/day?implementation=${form}`, 400, 'implementation');
    }
    // A chain the network does not list, or one of the other network.
    await expectError('/v1/fungibles/by-implementation/charts/day?implementation=nochain', 400, 'implementation');
    await expectError('/v1/fungibles/by-implementation/charts/day?implementation=sepolia', 400, 'implementation');
    await expectError('/v1/fungibles/by-implementation/charts/day?implementation=ethereum', 400, 'implementation', { 'X-Env': 'testnet' });
    // A Solana mint on an EVM chain.
    await expectError('/v1/fungibles/by-implementation/charts/day?implementation=ethereum:GNojwQQc29ecLn6uQ3FeU93vpL56Cx5EHwkm3upUYHns', 400, 'implementation');
  }, 60_000);

  test('404 for an unknown fungible, by id or by an implementation that is no token', async () => {
    await expectError('/v1/fungibles/no-such-fungible/charts/day', 404, 'no-such-fungible');
    // An address with no token behind it is no fungible; a known one is charted on testnet as well.
    await expectError(
      '/v1/fungibles/by-implementation/charts/day?implementation=ethereum:0x000000000000000000000000000000000000dead',
      404,
      '0x000000000000000000000000000000000000dead',
    );
    expect((await get('/v1/fungibles/eth/charts/day', { 'X-Env': 'testnet' })).status).toBe(200);
  }, 60_000);
});

describe('fungible chart cache', () => {
  test('a repeat is served without pricing again; a price move prices again only the points from its time on; a rollback prices everything again', async () => {
    const asked: number[] = [];
    const counted: Pick<PriceOracle, 'prices'> = {
      async prices(currency, queries) {
        asked.push(queries.length);
        return oracle.prices(currency, queries);
      },
    };
    const charts = createFungibleCharts({
      oracle: counted,
      registry: createRegistry(registry),
      firstPrices: createFirstPriceStore(clickhouse.clickhouse),
      versions: changes.versions,
      settleSeconds: 60,
    });
    const gov = {
      id: 'gov',
      implementations: [
        { chainId: 'ethereum', address: addressOf('gov', 'ethereum') },
        { chainId: 'base', address: addressOf('gov', 'base') },
      ],
    };
    const request = { fungible: gov, currency: 'usd' as const, period: 'year' as const, network: 'mainnet' };

    const first = await charts.chart(request);
    expect(asked).toEqual([first.window.endAt / 86_400 - first.window.beginAt / 86_400 + 1]);
    const again = await charts.chart(request);
    expect(asked).toHaveLength(1);
    expect(again).toEqual(first);

    // A move of the prices of the last 10 days: only the points from then on are asked again.
    const since = first.window.endAt - 10 * 86_400 + 1;
    await changes.versions.pricesChanged(undefined, { since });
    const moved = await charts.chart(request);
    expect(asked.slice(1)).toEqual([10]);
    expect(moved.points).toEqual(first.points);

    await changes.versions.everythingChanged();
    const rolled = await charts.chart(request);
    expect(asked.slice(2)).toEqual([asked[0]]);
    expect(rolled.points).toEqual(first.points);
  }, 60_000);
});
