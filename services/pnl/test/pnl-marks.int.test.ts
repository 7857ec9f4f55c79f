import { setupChangeVersions, setupClickHouse, uniqueName } from '@wallet-api/core/testing';
import { blockRef, erc20, randomAddress, token, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import type { PnlRequest } from '../src/compute/wallet-pnl.js';
import { BeyondMarkAllowance } from '../src/marks/marks.js';
import { startHistoryIndexer, walletPnlOver, type HistoryIndexer } from './setup-history.js';

// Spec 4.2 rule 2 over the real indexer: a wallet of 7,000 trades, one every 10 s within the last day
// before "now" (the service's clock, set by the test), so the 1 day mark lies before them all and
// the "now" mark after. A `since`/`till` fewer than 3,000 transactions from the nearest mark is
// answered and equals the window the FIFO gives; one 3,000 or more from every mark is refused.

const clickhouse = setupClickHouse();
const changes = setupChangeVersions();
const chainId = uniqueName('chain');
const wallet = randomAddress();
const pool = randomAddress();
const usdc = randomAddress();
const gov = randomAddress();
const trades = 7_000;
const now = 1_750_000_000;
const firstAt = now - 86_400 + 600;
let running: HistoryIndexer;

// Buys of 1 GOV for 100 USDC, every tenth trade a sale of 1 GOV for 150.
const history = Array.from({ length: trades }, (_, index) => {
  const sale = index % 10 === 9;
  const [given, got] = sale ? [erc20(gov), erc20(usdc)] : [erc20(usdc), erc20(gov)];
  const [givenAmount, gotAmount] = sale ? [10n ** 18n, 150n * 10n ** 6n] : [100n * 10n ** 6n, 10n ** 18n];
  return transaction(blockRef(chainId, index + 1, firstAt + index * 10), 0, {
    from: wallet,
    to: pool,
    fee: '0',
    transfers: [
      { asset: given, amount: givenAmount.toString(), sender: wallet, recipient: pool },
      { asset: got, amount: gotAmount.toString(), sender: pool, recipient: wallet },
    ],
  });
});

beforeAll(async () => {
  running = await startHistoryIndexer(clickhouse, {
    fixture: {
      tokens: [
        token(chainId, usdc, { symbol: 'USDC', decimals: 6, fungibleId: 'usdc' }),
        token(chainId, gov, { symbol: 'GOV', decimals: 18, fungibleId: 'gov' }),
      ],
      dapps: [],
      price: (query) => (query.token?.address === usdc ? 1 : query.timestamp === '0' ? 120 : undefined),
    },
    transactions: history,
  });
}, 120_000);

afterAll(async () => {
  await running?.stop();
  changes.close();
  await clickhouse.close();
});

const request = (fields: Partial<PnlRequest>): PnlRequest => ({
  context: { organizationId: '', roles: [], addons: [], network: 0 },
  addresses: [wallet],
  chainIds: [chainId],
  currency: 'usd',
  fungibleIds: ['gov'],
  fungibleImplementations: [],
  ...fields,
});
/** Sales of GOV at or after trade `from` and at or before trade `to`: each realizes 150 - 100. */
const realizedBetween = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, offset) => from + offset).filter((index) => index % 10 === 9).length * 50;
const timeOf = (index: number) => firstAt + index * 10;

test('a since/till near a mark is answered from the book; one 3,000 transactions or more from every mark is refused', async () => {
  const pnl = walletPnlOver({ indexer: running.indexer, referenceData: running.referenceData.client }, changes.versions, { now: () => now });
  const near = await pnl.compute(request({ since: timeOf(1_000), till: timeOf(5_000) }));
  expect(near.breakdown?.entries.get('gov')?.realizedGain).toBe(realizedBetween(1_000, 5_000));
  // Trade i has i trades before it (and the 1 day mark before those), 6,999 - i after it (and then "now").
  await expect(pnl.compute(request({ since: timeOf(2_999) }))).resolves.toBeDefined();
  await expect(pnl.compute(request({ since: timeOf(3_000) }))).rejects.toThrow(BeyondMarkAllowance);
  await expect(pnl.compute(request({ till: timeOf(3_999) }))).rejects.toThrow('till lies 3,000 transactions from the nearest mark');
  await expect(pnl.compute(request({ till: timeOf(4_000) }))).resolves.toBeDefined();
}, 60_000);
