import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { setupChangeVersions, setupClickHouse, testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { blockRef, erc20, randomAddress, token, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import type { WalletPnl } from '../../pnl/src/compute/wallet-pnl.js';
import { pnlService } from '../../pnl/src/grpc/pnl-service.js';
import { startHistoryIndexer, walletPnlOver, type HistoryIndexer } from '../../pnl/test/setup-history.js';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';
import { createWalletApiClient, type WalletApiClient } from '../../../clients/typescript/src/index.js';

// GET /v1/wallets/{address}/pnl and its wallet-set twin through the gateway, the pnl service, the
// indexer over ClickHouse and a reference-data of fixed prices: the issue's hand-made wallet (buy
// 1 GOV at 100, 1 at 200, sell 1 at 300, 250 today) as decisions.md's `pnl` resource, and the 400s.

const clickhouse = setupClickHouse();
const changes = setupChangeVersions();
const wallet = randomAddress();
const pool = randomAddress();
const usdc = randomAddress();
const gov = randomAddress();
const blocks = [0, 1, 2].map((step) => blockRef('ethereum', 900_000 + step, 1_700_100_000 + step * 3_600));
const govPrices = new Map([
  [blocks[0]!.timestamp, 100],
  [blocks[1]!.timestamp, 200],
  [blocks[2]!.timestamp, 300],
  [0, 250],
]);
const swap = (block: number, given: string, givenAmount: bigint, got: string, gotAmount: bigint) =>
  transaction(blocks[block]!, 0, {
    from: wallet,
    to: pool,
    fee: '0',
    transfers: [
      { asset: erc20(given), amount: givenAmount.toString(), sender: wallet, recipient: pool },
      { asset: erc20(got), amount: gotAmount.toString(), sender: pool, recipient: wallet },
    ],
  });
const history = [
  swap(0, usdc, 100n * 10n ** 6n, gov, 10n ** 18n),
  swap(1, usdc, 200n * 10n ** 6n, gov, 10n ** 18n),
  swap(2, gov, 10n ** 18n, usdc, 300n * 10n ** 6n),
];
// A wallet past the service's limit (set to 3 transactions here, 1 million in service), and one whose computation waits for the test.
const crowded = randomAddress();
const crowdedHistory = [0, 1, 2, 3].map((step) => transaction(blockRef('ethereum', 910_000 + step, 1_700_200_000 + step * 60), 0, { from: crowded, to: pool }));
const slow = randomAddress();
const exchange = randomAddress();
let releaseSlow: () => void = () => undefined;
const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));

let running: HistoryIndexer;
let services: GrpcServer;
let server: Server;
let backends: Backends;
const prisma = createPrisma(testConfig().DATABASE_URL);
const redis = new Redis(testConfig().REDIS_URL);
let get: (path: string) => Promise<{ status: number; body: any }>;
let fetchRaw: (path: string) => Promise<Response>;
// The typed client (@wallet-api/client) for the calls the served OpenAPI document must describe.
let api: WalletApiClient;

beforeAll(async () => {
  const registry = createChainRegistry(await loadChainsConfig(new URL('../../reference-data/config/chains.json', import.meta.url).pathname, {}));
  running = await startHistoryIndexer(clickhouse, {
    fixture: {
      chains: { list: (network) => registry.list(network) },
      tokens: [
        token('ethereum', usdc, { symbol: 'USDC', decimals: 6, fungibleId: uniqueName('usdc') }),
        token('ethereum', gov, { symbol: 'GOV', decimals: 18, fungibleId: 'gov-pnl' }),
      ],
      dapps: [],
      untracked: { [exchange]: 'address is a high-volume address (Exchange) and is not tracked' },
      price: (query) => (query.token?.address === usdc ? 1 : query.token?.address === gov ? govPrices.get(Number(query.timestamp)) : undefined),
    },
    transactions: [...history, ...crowdedHistory],
  });
  const referenceData = running.referenceData;
  services = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      pnlService({
        pnl: gated(walletPnlOver({ indexer: running.indexer, referenceData: running.referenceData.client }, changes.versions, { maxTransactions: 3 })),
        versions: changes.versions,
        waitMs: 2_000,
      }),
    ],
    logger: testLogger,
  });
  backends = createBackends({
    referenceData: referenceData.address,
    indexer: running.address,
    positions: referenceData.address,
    pnl: `127.0.0.1:${services.port}`,
  });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl: 'https://api.wallet.test',
    rateLimits: { perSecond: 1000, burst: 1000 },
    logger: testLogger,
    checkResponses: true,
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('pnl'), roles: [], addons: [] });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = createWalletApiClient({ baseUrl: base, apiKey: key });
  fetchRaw = (path) => fetch(`${base}${path}`, { headers: { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } });
  get = async (path) => {
    const response = await fetchRaw(path);
    return { status: response.status, body: await response.json() };
  };
}, 60_000);

/** The service's computation, held back for the slow wallet until the test releases it. */
function gated(pnl: WalletPnl): WalletPnl {
  return {
    async compute(request) {
      if (request.addresses.includes(slow)) await slowGate;
      return pnl.compute(request);
    },
  };
}

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  backends?.close();
  await services?.shutdown(1_000);
  await running?.stop();
  redis.disconnect();
  await prisma.$disconnect();
  changes.close();
  await clickhouse.close();
});

test('the hand-made wallet as a pnl resource: realized 200, unrealized 50, the breakdown by fungible id', async () => {
  const path = `/v1/wallets/${wallet}/pnl?filter[chain_ids]=ethereum&filter[fungible_ids]=gov-pnl`;
  const { data: body, response } = await api.GET('/v1/wallets/{address}/pnl', {
    params: { path: { address: wallet }, query: { 'filter[chain_ids]': 'ethereum', 'filter[fungible_ids]': 'gov-pnl' } },
  });
  expect(response.status).toBe(200);
  if (!body) throw new Error('no pnl body');
  expect(body.links).toEqual({ self: `https://api.wallet.test${path}` });
  expect(body.data).toMatchObject({
    type: 'pnl',
    id: wallet,
    attributes: { realized_gain: 200, unrealized_gain: 50, total_gain: 250, net_invested: 200, relative_realized_gain_percentage: 200 },
  });
  expect(body.data.attributes.breakdown).toMatchObject({ by_id: { 'gov-pnl': { realized_gain: 200, average_buy_price: 150, average_sell_price: 300 } } });
  expect(body.meta).toEqual({ excluded_fungible_ids: [], excluded_fungible_implementations: [] });

  const set = await api.GET('/v1/wallet-sets/pnl', {
    params: { query: { addresses: wallet, 'filter[chain_ids]': 'ethereum', 'filter[fungible_ids]': 'gov-pnl' } },
  });
  expect(set.response.status).toBe(200);
  expect(set.data!.data.attributes).toEqual(body.data.attributes);

  const byImplementation = await get(
    `/v1/wallets/${wallet}/pnl?filter[chain_ids]=ethereum&filter[fungible_implementations]=ethereum:${gov.toUpperCase().replace('0X', '0x')}`,
  );
  expect(byImplementation.body.data.attributes.breakdown.by_implementation[`ethereum:${gov}`]).toMatchObject({ realized_gain: 200, unrealized_gain: 50 });
});

test.each([
  ['?since=1700000000000&till=1600000000000', 'parameter since: must not be after till'],
  ['?since=170000000000', 'parameter since: must be a unix timestamp in milliseconds of exactly 13 digits'],
  ['?filter[chain_ids]=sepolia', 'parameter filter[chain_ids]: chain sepolia is not supported'],
])('%s: 400 %s', async (query, detail) => {
  const { status, body } = await get(`/v1/wallets/${wallet}/pnl${query}`);
  expect({ status, body }).toEqual({ status: 400, body: { errors: [{ title: expect.any(String), detail }] } });
});

test('a wallet still being computed answers 503 with Retry-After, then 200 once computed', async () => {
  const first = await fetchRaw(`/v1/wallets/${slow}/pnl`);
  expect(first.status).toBe(503);
  expect(first.headers.get('retry-after')).toMatch(/^\d+$/);
  // The gateway words every UNAVAILABLE alike: a backend's own message may name its internals.
  expect(((await first.json()) as any).errors[0].detail).toBe('a backend service is unavailable; retry later');
  releaseSlow();
  const later = await get(`/v1/wallets/${slow}/pnl`);
  expect(later.status).toBe(200);
  expect(later.body.data).toMatchObject({ type: 'pnl', id: slow, attributes: { realized_gain: 0, total_invested: 0 } });
});

test('a wallet past the transaction limit answers 422 without Retry-After, every time', async () => {
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await fetchRaw(`/v1/wallets/${crowded}/pnl`);
    expect(response.status).toBe(422);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(((await response.json()) as any).errors[0].detail).toBe('the wallet has more than 3 transactions, beyond what profit and loss is computed for');
  }
});

test('an address the service does not track answers 400 naming why, alone and in a wallet set', async () => {
  const detail = 'address is a high-volume address (Exchange) and is not tracked';
  for (const path of [`/v1/wallets/${exchange}/pnl`, `/v1/wallet-sets/pnl?addresses=${exchange}`]) {
    const { status, body } = await get(path);
    expect({ path, status, body }).toEqual({ path, status: 400, body: { errors: [{ title: expect.any(String), detail }] } });
  }
});
