import { randomBytes } from 'node:crypto';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { setupChangeVersions } from '@wallet-api/core/testing';
import fc from 'fast-check';
import { Network, type RequestContext } from '@wallet-api/core/proto/common';
import { AssetKind } from '@wallet-api/core/proto/events';
import { TransactionRecord } from '@wallet-api/core/proto/indexer';
import { ReferenceDataClient, TokenInfo, type PriceQuery } from '@wallet-api/core/proto/reference_data';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { createPagePriceTable } from '../src/cache/page-prices.js';

// The transactions route's GetPrices answers over gRPC against a reference-data fixture, kept under
// real change tokens in Redis: what a page asks again, and what a price move or a rollback asks.

const usdc = `0x${randomBytes(20).toString('hex')}`;
const context = (network = Network.NETWORK_MAINNET): RequestContext => ({ organizationId: 'org', roles: [], addons: [], network });
/** The price moves with this, so an answer shows which GetPrices it came from. */
let priceLevel = 1;
const levelPrice = (query: PriceQuery, currency: string) =>
  query.token!.address === usdc ? undefined : priceLevel * Number(query.timestamp) * (currency === 'eur' ? 0.9 : 1);
/** What the fixture answers: the level price above, or a property's own market model. */
let price: (query: PriceQuery, currency: string) => number | undefined = levelPrice;

const ether = { asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' }, info: TokenInfo.fromPartial({ decimals: 18 }) };
const dollar = { asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdc, tokenId: '' }, info: TokenInfo.fromPartial({ decimals: 6 }) };
const record = (minedAt: number) =>
  TransactionRecord.fromPartial({
    chainId: 'ethereum',
    minedAt: String(minedAt),
    fee: '1',
    feeToken: ether,
    transfers: [{ actId: 1, direction: 'in', token: dollar, amount: '5', sender: '0x01', recipient: '0x02' }],
  });

const changes = setupChangeVersions();
const { versions } = changes;
let referenceData: RunningReferenceData;
let client: ReferenceDataClient;

beforeAll(async () => {
  referenceData = await startReferenceDataFixture({ tokens: [], dapps: [], price: (query, currency) => price(query, currency) });
  client = createGrpcClient(ReferenceDataClient, referenceData.address);
});

afterAll(async () => {
  client.close();
  changes.close();
  await referenceData.stop();
});

/** The (token, time) pairs each GetPrices request since `before` asked. */
const askedSince = (before: number) =>
  referenceData.getPricesRequests.slice(before).map((request) => request.queries.map((query) => `${query.token!.address || 'native'}@${query.timestamp}`));

describe("a page's prices", () => {
  test('a page asks only the pairs not kept; a price move asks again only the pairs from its earliest time on', async () => {
    const table = createPagePriceTable(client, { versions });
    priceLevel = 1;
    const before = referenceData.getPricesRequests.length;
    const first = await table.prices(context(), 'usd', [record(100), record(200)]);
    expect([first.price('ethereum', '', '100'), first.price('ethereum', '', '200'), first.price('ethereum', usdc, '100')]).toEqual([100, 200, undefined]);

    // The wallet's next transaction: its pairs alone are asked, known prices and known absences are kept.
    const next = await table.prices(context(), 'usd', [record(300), record(100), record(200)]);
    expect([next.price('ethereum', '', '300'), next.price('ethereum', '', '100'), next.price('ethereum', usdc, '200')]).toEqual([300, 100, undefined]);

    // A price move from time 150 on: the pairs at 200 and 300 are asked again, at the new level; 100 is kept.
    priceLevel = 2;
    await versions.pricesChanged(undefined, { since: 150 });
    const moved = await table.prices(context(), 'usd', [record(300), record(200), record(100)]);
    expect([moved.price('ethereum', '', '300'), moved.price('ethereum', '', '200'), moved.price('ethereum', '', '100')]).toEqual([600, 400, 100]);

    // A rollback reaches every time: every pair again.
    await versions.everythingChanged();
    const rolledBack = await table.prices(context(), 'usd', [record(100)]);
    expect(rolledBack.price('ethereum', '', '100')).toBe(200);
    expect(askedSince(before)).toEqual([
      ['native@100', `${usdc}@100`, 'native@200', `${usdc}@200`],
      ['native@300', `${usdc}@300`],
      ['native@300', `${usdc}@300`, 'native@200', `${usdc}@200`],
      ['native@100', `${usdc}@100`],
    ]);
  });

  test('prices of the last settling minutes are asked every time: later blocks may still move them', async () => {
    const table = createPagePriceTable(client, { versions });
    const recent = Math.floor(Date.now() / 1000) - 60;
    const before = referenceData.getPricesRequests.length;
    await table.prices(context(), 'usd', [record(recent)]);
    await table.prices(context(), 'usd', [record(recent)]);
    expect(askedSince(before)).toHaveLength(2);
  });

  test('prices are kept per currency and network; without change tokens every pair is asked', async () => {
    const table = createPagePriceTable(client, { versions });
    priceLevel = 1;
    const before = referenceData.getPricesRequests.length;
    await table.prices(context(), 'usd', [record(10)]);
    expect((await table.prices(context(), 'eur', [record(10)])).price('ethereum', '', '10')).toBe(9);
    await table.prices(context(Network.NETWORK_TESTNET), 'usd', [record(10)]);
    await table.prices(context(), 'usd', [record(10)]);
    expect(askedSince(before)).toHaveLength(3);
    const uncached = createPagePriceTable(client);
    await uncached.prices(context(), 'usd', [record(10)]);
    await uncached.prices(context(), 'usd', [record(10)]);
    expect(askedSince(before)).toHaveLength(5);
  });

  test('a page without fungibles asks nothing', async () => {
    const before = referenceData.getPricesRequests.length;
    const prices = await createPagePriceTable(client, { versions }).prices(context(), 'usd', []);
    expect(prices.price('ethereum', '', '1')).toBeUndefined();
    expect(referenceData.getPricesRequests.length).toBe(before);
  });
});

describe('kept prices against a market model', () => {
  afterAll(() => {
    price = levelPrice;
  });

  type Step = { kind: 'move'; since: number } | { kind: 'move of unknown time' } | { kind: 'rollback' } | { kind: 'page'; times: number[] };
  // Few times, so moves land on times pages asked; changes that drop everything rarer than the rest.
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('move' as const), since: fc.integer({ min: 1, max: 8 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'move of unknown time' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'rollback' as const }) },
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('page' as const), times: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 4 }) }),
    },
  );

  test('after any sequence of price moves, rollbacks and pages, every page is priced as reference-data prices it now', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 30, size: 'medium' }), async (steps) => {
        // Each change multiplies the prices it reaches by a factor of its own: an answer kept past a change it reached is off.
        const changes: { since: number; factor: number }[] = [];
        price = (query) =>
          query.token!.address === usdc
            ? undefined
            : changes.reduce((value, change) => (Number(query.timestamp) >= change.since ? value * change.factor : value), Number(query.timestamp));
        const table = createPagePriceTable(client, { versions });
        for (const current of steps) {
          const factor = changes.length + 2;
          if (current.kind === 'move') {
            changes.push({ since: current.since, factor });
            await versions.pricesChanged(undefined, { since: current.since });
          } else if (current.kind === 'move of unknown time') {
            changes.push({ since: 0, factor });
            await versions.pricesChanged();
          } else if (current.kind === 'rollback') {
            changes.push({ since: 0, factor });
            await versions.everythingChanged();
          } else {
            const served = await table.prices(context(), 'usd', current.times.map(record));
            for (const time of current.times) {
              const expected = changes.reduce((value, change) => (time >= change.since ? value * change.factor : value), time);
              expect({ time, price: served.price('ethereum', '', String(time)) }).toEqual({ time, price: expected });
              expect(served.price('ethereum', usdc, String(time))).toBeUndefined();
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
