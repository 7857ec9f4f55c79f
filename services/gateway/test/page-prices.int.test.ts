import { randomBytes } from 'node:crypto';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { Network, type RequestContext } from '@wallet-api/core/proto/common';
import { AssetKind } from '@wallet-api/core/proto/events';
import { TransactionRecord } from '@wallet-api/core/proto/indexer';
import { ReferenceDataClient, TokenInfo, type PriceQuery } from '@wallet-api/core/proto/reference_data';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { createPagePriceTable } from '../src/cache/page-prices.js';

// The transactions route's GetPrices answers over gRPC against a reference-data fixture: what is
// asked again for a page under the same price tokens, and what a change of them asks.

const usdc = `0x${randomBytes(20).toString('hex')}`;
const context = (network = Network.NETWORK_MAINNET): RequestContext => ({ organizationId: 'org', roles: [], addons: [], network });
/** The price moves with this, so an answer shows which GetPrices it came from. */
let priceLevel = 1;
const price = (query: PriceQuery, currency: string) => (query.token!.address === usdc ? undefined : priceLevel * Number(query.timestamp) * (currency === 'eur' ? 0.9 : 1));

const ether = { asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' }, info: TokenInfo.fromPartial({ decimals: 18 }) };
const dollar = { asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdc, tokenId: '' }, info: TokenInfo.fromPartial({ decimals: 6 }) };
const record = (minedAt: number) =>
  TransactionRecord.fromPartial({ chainId: 'ethereum', minedAt: String(minedAt), fee: '1', feeToken: ether, transfers: [{ actId: 1, direction: 'in', token: dollar, amount: '5', sender: '0x01', recipient: '0x02' }] });

let referenceData: RunningReferenceData;
let client: ReferenceDataClient;

beforeAll(async () => {
  referenceData = await startReferenceDataFixture({ tokens: [], dapps: [], price });
  client = createGrpcClient(ReferenceDataClient, referenceData.address);
});

afterAll(async () => {
  client.close();
  await referenceData.stop();
});

/** The (token, time) pairs each GetPrices request since `before` asked. */
const askedSince = (before: number) => referenceData.getPricesRequests.slice(before).map((request) => request.queries.map((query) => `${query.token!.address || 'native'}@${query.timestamp}`));

describe("a page's prices", () => {
  test('under the same price tokens, only the pairs not asked before are asked; a new generation asks every pair again', async () => {
    const table = createPagePriceTable(client);
    const before = referenceData.getPricesRequests.length;
    const first = await table.prices(context(), 'usd', [record(100), record(200)], 'tokens-1');
    expect([first.price('ethereum', '', '100'), first.price('ethereum', '', '200'), first.price('ethereum', usdc, '100')]).toEqual([100, 200, undefined]);

    // The wallet's next transaction: its pairs alone are asked, known prices and known absences are kept.
    const next = await table.prices(context(), 'usd', [record(300), record(100), record(200)], 'tokens-1');
    expect([next.price('ethereum', '', '300'), next.price('ethereum', '', '100'), next.price('ethereum', usdc, '200')]).toEqual([300, 100, undefined]);

    // A price move: every pair again, at the new level.
    priceLevel = 2;
    const moved = await table.prices(context(), 'usd', [record(300), record(100)], 'tokens-2');
    expect([moved.price('ethereum', '', '300'), moved.price('ethereum', '', '100')]).toEqual([600, 200]);
    expect(askedSince(before)).toEqual([
      ['native@100', `${usdc}@100`, 'native@200', `${usdc}@200`],
      ['native@300', `${usdc}@300`],
      ['native@300', `${usdc}@300`, 'native@100', `${usdc}@100`],
    ]);
  });

  test('prices are kept per currency and network; without a generation every pair is asked', async () => {
    const table = createPagePriceTable(client);
    priceLevel = 1;
    const before = referenceData.getPricesRequests.length;
    await table.prices(context(), 'usd', [record(10)], 'tokens');
    expect((await table.prices(context(), 'eur', [record(10)], 'tokens')).price('ethereum', '', '10')).toBe(9);
    await table.prices(context(Network.NETWORK_TESTNET), 'usd', [record(10)], 'tokens');
    await table.prices(context(), 'usd', [record(10)], undefined);
    await table.prices(context(), 'usd', [record(10)], 'tokens');
    expect(askedSince(before)).toHaveLength(4);
  });

  test('a page without fungibles asks nothing', async () => {
    const before = referenceData.getPricesRequests.length;
    const prices = await createPagePriceTable(client).prices(context(), 'usd', [], 'tokens');
    expect(prices.price('ethereum', '', '1')).toBeUndefined();
    expect(referenceData.getPricesRequests.length).toBe(before);
  });
});
