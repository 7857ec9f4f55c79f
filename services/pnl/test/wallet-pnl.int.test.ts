import { setupChangeVersions, setupClickHouse, uniqueName } from '@wallet-api/core/testing';
import { createWalletHistoryStore } from '../../indexer/src/store/wallet-history-store.js';
import { blockRef, erc20, randomAddress, token, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import type { PnlRequest, WalletPnl } from '../src/compute/wallet-pnl.js';
import { startHistoryIndexer, walletPnlOver, type HistoryIndexer } from './setup-history.js';

// The hand-made wallet through the real indexer (ClickHouse, ListWalletHistory) and a
// reference-data whose prices are fixed per time: buy 1 GOV at 100, buy 1 at 200, sell 1 at 300
// realizes 200, and the lot left is measured at today's 250; a transfer to itself changes nothing;
// a rollback of the sale's block takes the sale back.

const clickhouse = setupClickHouse();
const changes = setupChangeVersions();
const chainId = uniqueName('chain');
const wallet = randomAddress();
const pool = randomAddress();
const funder = randomAddress();
const usdc = randomAddress();
const gov = randomAddress();
const usdcUnit = 10n ** 6n;
const govUnit = 10n ** 18n;
let running: HistoryIndexer;

const blocks = [0, 1, 2, 3, 4].map((step) => blockRef(chainId, 100 + step, 1_700_000_000 + step * 3_600));
/** GOV's price at each block's time, and today's (timestamp 0). */
const govPrices = new Map<number, number>([
  [blocks[1]!.timestamp, 100],
  [blocks[2]!.timestamp, 200],
  [blocks[3]!.timestamp, 220],
  [blocks[4]!.timestamp, 300],
  [0, 250],
]);
const swap = (block: number, given: { asset: ReturnType<typeof erc20>; amount: bigint }, got: { asset: ReturnType<typeof erc20>; amount: bigint }) =>
  transaction(blocks[block]!, 0, {
    from: wallet,
    to: pool,
    fee: '0',
    transfers: [
      { asset: given.asset, amount: given.amount.toString(), sender: wallet, recipient: pool },
      { asset: got.asset, amount: got.amount.toString(), sender: pool, recipient: wallet },
    ],
  });
const history = [
  transaction(blocks[0]!, 0, {
    from: funder,
    to: usdc,
    transfers: [{ asset: erc20(usdc), amount: (1_000n * usdcUnit).toString(), sender: funder, recipient: wallet }],
  }),
  swap(1, { asset: erc20(usdc), amount: 100n * usdcUnit }, { asset: erc20(gov), amount: govUnit }),
  swap(2, { asset: erc20(usdc), amount: 200n * usdcUnit }, { asset: erc20(gov), amount: govUnit }),
  transaction(blocks[3]!, 0, {
    from: wallet,
    to: gov,
    fee: '0',
    transfers: [{ asset: erc20(gov), amount: govUnit.toString(), sender: wallet, recipient: wallet }],
  }),
  swap(4, { asset: erc20(gov), amount: govUnit }, { asset: erc20(usdc), amount: 300n * usdcUnit }),
];

beforeAll(async () => {
  running = await startHistoryIndexer(clickhouse, {
    fixture: {
      tokens: [
        token(chainId, '', { interface: 1, symbol: 'ETH', decimals: 18, fungibleId: 'eth' }),
        token(chainId, usdc, { symbol: 'USDC', decimals: 6, fungibleId: 'usdc' }),
        token(chainId, gov, { symbol: 'GOV', decimals: 18, fungibleId: 'gov' }),
      ],
      dapps: [],
      price: (query) => (query.token?.address === usdc ? 1 : query.token?.address === gov ? govPrices.get(Number(query.timestamp)) : 2_000),
    },
    transactions: history,
  });
});

afterAll(async () => {
  await running?.stop();
  changes.close();
  await clickhouse.close();
});

// One service for every test, its wallet books kept between them as in the running service.
let kept: WalletPnl | undefined;
const pnl = () => (kept ??= walletPnlOver({ indexer: running.indexer, referenceData: running.referenceData.client }, changes.versions));
const request = (fields: Partial<PnlRequest> = {}): PnlRequest => ({
  context: { organizationId: '', roles: [], addons: [], network: 0 },
  addresses: [wallet],
  chainIds: [chainId],
  currency: 'usd',
  fungibleIds: [],
  fungibleImplementations: [],
  ...fields,
});

test('buy 1 at 100, buy 1 at 200, sell 1 at 300: realized 200, the 200 lot left worth 250 today; the self-transfer changes nothing', async () => {
  const result = await pnl().compute(request({ fungibleIds: ['gov'] }));
  expect(result.excludedFungibleIds).toEqual([]);
  expect(result.breakdown?.by).toBe('id');
  expect(result.breakdown?.entries.get('gov')).toMatchObject({
    realizedGain: 200,
    realizedCostBasis: 100,
    unrealizedGain: 50,
    netInvested: 200,
    totalInvested: 300,
    averageBuyPrice: 150,
    averageSellPrice: 300,
  });
  expect(result.figures).toMatchObject({
    realizedGain: 200,
    unrealizedGain: 50,
    totalGain: 250,
    relativeRealizedGainPercentage: 200,
    relativeUnrealizedGainPercentage: 25,
  });

  // Every fungible: USDC received from outside (1,000) and traded at its price, no gain on it.
  const all = await pnl().compute(request());
  expect(all.figures).toMatchObject({ realizedGain: 200, unrealizedGain: 50, receivedExternal: 1_000, totalInvested: 1_600 });
  expect(all.breakdown).toBeUndefined();
});

test('an implementation filter keeps lots of that implementation alone, with a breakdown by implementation', async () => {
  const result = await pnl().compute(request({ fungibleImplementations: [`${chainId}:${gov}`] }));
  expect(result.breakdown?.by).toBe('implementation');
  expect(result.breakdown?.entries.get(`${chainId}:${gov}`)).toMatchObject({ realizedGain: 200, unrealizedGain: 50 });
});

test('a fungible without a price today is left out and listed', async () => {
  govPrices.delete(0);
  try {
    const result = await pnl().compute(request({ fungibleIds: ['gov', 'usdc'] }));
    expect(result.excludedFungibleIds).toEqual(['gov']);
    expect([...result.breakdown!.entries.keys()]).toEqual(['usdc']);
    expect(result.figures.realizedGain).toBe(0);
  } finally {
    govPrices.set(0, 250);
  }
});

test('a rollback of the sale takes it back: both lots stay open', async () => {
  await createWalletHistoryStore(clickhouse).recordRollbacks([
    {
      chainId,
      commonAncestorNumber: String(blocks[3]!.number),
      commonAncestorHash: blocks[3]!.hash,
      orphanedBlockHashes: [blocks[4]!.hash],
      orphanedBlockNumbers: [String(blocks[4]!.number)],
      sequence: '1000',
    },
  ]);
  await changes.versions.everythingChanged();
  const result = await pnl().compute(request({ fungibleIds: ['gov'] }));
  expect(result.breakdown?.entries.get('gov')).toMatchObject({ realizedGain: 0, unrealizedGain: 2 * 250 - 300, netInvested: 300 });
});

test('since counts the sales from then on; till leaves later transactions out', async () => {
  // (After the rollback above the sale is gone: replay the history without it.)
  const till = await pnl().compute(request({ fungibleIds: ['gov'], till: blocks[1]!.timestamp }));
  expect(till.breakdown?.entries.get('gov')).toMatchObject({ totalInvested: 100, netInvested: 100, unrealizedGain: 150 });
  const since = await pnl().compute(request({ fungibleIds: ['gov'], since: blocks[2]!.timestamp }));
  expect(since.breakdown?.entries.get('gov')).toMatchObject({ totalInvested: 200, netInvested: 300 });
});
