import { createTokenDirectory } from '@wallet-api/core/reference-data';
import { setupChangeVersions, setupClickHouse, uniqueName } from '@wallet-api/core/testing';
import type { WalletLegs, WalletTransaction } from '@wallet-api/core/proto/events';
import { walletRows } from '../../indexer/src/consume/wallet-rows.js';
import { createWalletHistoryStore } from '../../indexer/src/store/wallet-history-store.js';
import { blockRef, erc20, randomAddress, token, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import { createBookKeeper, type BookKeeper, type BookRequest } from '../src/book/book-keeper.js';
import { createLegPricing } from '../src/book/leg-pricing.js';
import type { WalletBook } from '../src/book/wallet-book.js';
import { createHistoryReader, type HistoryReader } from '../src/history/history-reader.js';
import { startHistoryIndexer, type HistoryIndexer } from './setup-history.js';

// The book keeper over the real indexer (ClickHouse, ListWalletHistory) and the real change tokens
// in Redis: a book follows new transactions chain by chain without replaying the history, keeps
// through price moves after its legs, and is replayed from the start after a rollback, a price
// move reaching its legs, or a transaction arriving before its newest. Every book followed equals
// one replayed from the start.

const clickhouse = setupClickHouse();
const changes = setupChangeVersions();
const [chainA, chainB] = [uniqueName('chain-a'), uniqueName('chain-b')];
const wallet = randomAddress();
const pool = randomAddress();
const usdc = randomAddress();
const gov = randomAddress();
const start = 1_700_500_000;
let running: HistoryIndexer;
let keeper: BookKeeper;
const reads = { history: 0, newerThan: 0 };

const swap = (chainId: string, number: number, buy: boolean) => {
  const [given, got] = buy ? [erc20(usdc), erc20(gov)] : [erc20(gov), erc20(usdc)];
  const [givenAmount, gotAmount] = buy ? [100n * 10n ** 6n, 10n ** 18n] : [10n ** 18n, 300n * 10n ** 6n];
  return transaction(blockRef(chainId, number, start + number * 10), 0, {
    from: wallet,
    to: pool,
    transfers: [
      { asset: given, amount: givenAmount.toString(), sender: wallet, recipient: pool },
      { asset: got, amount: gotAmount.toString(), sender: pool, recipient: wallet },
    ],
  });
};
const write = async (...transactions: WalletTransaction[]) => {
  const store = createWalletHistoryStore(clickhouse);
  for (const written of transactions) await store.writeTransaction(written, walletRows(written, { lookup: () => undefined }));
  await changes.versions.walletsChanged([wallet], 'history');
};

beforeAll(async () => {
  running = await startHistoryIndexer(clickhouse, {
    fixture: {
      tokens: [chainA, chainB].flatMap((chainId) => [
        token(chainId, '', { interface: 1, symbol: 'ETH', decimals: 18, fungibleId: 'eth' }),
        token(chainId, usdc, { symbol: 'USDC', decimals: 6, fungibleId: 'usdc' }),
        token(chainId, gov, { symbol: 'GOV', decimals: 18, fungibleId: 'gov' }),
      ]),
      dapps: [],
      price: (query) => (query.token?.address === usdc ? 1 : query.token?.address === gov ? 150 : 2_000),
    },
    transactions: [swap(chainA, 1, true), swap(chainB, 2, true)],
  });
  const history = createHistoryReader({ indexer: running.indexer });
  const counted: HistoryReader = {
    history: (...args) => (reads.history++, history.history(...args)),
    newerThan: (...args) => (reads.newerThan++, history.newerThan(...args)),
  };
  keeper = keeperOver(counted);
});

afterAll(async () => {
  await running?.stop();
  changes.close();
  await clickhouse.close();
});

function keeperOver(history: HistoryReader, maxBookTransactions?: number, recentTransactions?: number): BookKeeper {
  const referenceData = running.referenceData.client;
  return createBookKeeper({
    history,
    pricing: createLegPricing({ tokens: createTokenDirectory(referenceData), referenceData }),
    versions: changes.versions,
    ...(maxBookTransactions === undefined ? {} : { maxBookTransactions }),
    ...(recentTransactions === undefined ? {} : { recentTransactions }),
  });
}

const request: BookRequest = {
  context: { organizationId: '', roles: [], addons: [], network: 0 },
  address: wallet,
  chainIds: [chainA, chainB],
  currency: 'usd',
  kind: 'fungible',
};
const windows = [{}, { since: start + 25 }, { till: start + 35 }];
const figuresOf = (book: WalletBook) => windows.map((window) => [...book.ledgers.keys()].sort().map((key) => book.figures(key, window)));
/** The book replayed from the start by a keeper of its own. */
const replayed = async () => figuresOf(await keeperOver(createHistoryReader({ indexer: running.indexer })).book(request));
const readsSince = (before: typeof reads) => ({ history: reads.history - before.history, newerThan: reads.newerThan - before.newerThan });

test('a book is kept while the tokens stay; new transactions are read per chain after its newest and applied where it stands', async () => {
  const first = await keeper.book(request);
  expect(first.count).toBe(2);
  expect(await keeper.book(request)).toBe(first);

  let before = { ...reads };
  await write(swap(chainA, 3, false), swap(chainB, 4, false));
  const followed = await keeper.book(request);
  expect(followed).toBe(first);
  expect(readsSince(before)).toEqual({ history: 0, newerThan: 2 });
  expect(followed.count).toBe(4);
  // Each buy cost 100 USDC and the fee (21,000 gwei at 2,000); each sale gave GOV worth 150.
  const buyCost = 100 + 21_000e-9 * 2_000;
  const gov = followed.figures('gov', {});
  expect(gov.realizedGain).toBeCloseTo(2 * (150 - buyCost), 9);
  expect(gov.totalInvested).toBeCloseTo(2 * buyCost, 9);
  expect(gov.openUnits).toBe(0);
  expect(figuresOf(followed)).toEqual(await replayed());

  // A price move after the book's newest leg changes none of its values.
  before = { ...reads };
  await changes.versions.pricesChanged(undefined, { since: start + 1_000 });
  expect(await keeper.book(request)).toBe(first);
  expect(readsSince(before)).toEqual({ history: 0, newerThan: 0 });
});

test('a price move reaching the legs and a transaction before the newest take back the recent transactions; reaching further back, and a rollback, replay the history', async () => {
  const kept = await keeper.book(request);
  let before = { ...reads };
  await changes.versions.pricesChanged(undefined, { since: start + 20 });
  const repriced = await keeper.book(request);
  expect(repriced).toBe(kept);
  expect(readsSince(before)).toEqual({ history: 0, newerThan: 0 });
  expect(figuresOf(repriced)).toEqual(await replayed());

  // A book that can take back one transaction replays a move reaching two.
  const short = keeperOver(createHistoryReader({ indexer: running.indexer }), undefined, 1);
  const shortBook = await short.book(request);
  await changes.versions.pricesChanged(undefined, { since: start + 20 });
  expect(await short.book(request)).not.toBe(shortBook);

  // Chain B indexed behind chain A: its transaction at block 5 arrives after chain A's at 6.
  const latest = swap(chainA, 6, true);
  await write(latest);
  await keeper.book(request);
  before = { ...reads };
  await write(swap(chainB, 5, true));
  const reordered = await keeper.book(request);
  expect(reordered).toBe(kept);
  expect(readsSince(before)).toEqual({ history: 0, newerThan: 2 });
  expect(reordered.count).toBe(6);
  expect(figuresOf(reordered)).toEqual(await replayed());

  const store = createWalletHistoryStore(clickhouse);
  const realized = reordered.figures('gov', {}).realizedGain;
  const sale = swap(chainA, 7, false);
  await write(sale);
  expect((await keeper.book(request)).figures('gov', {}).realizedGain).toBeGreaterThan(realized);
  await store.recordRollbacks([
    {
      chainId: chainA,
      commonAncestorNumber: '6',
      commonAncestorHash: latest.blockHash,
      orphanedBlockHashes: [sale.blockHash],
      orphanedBlockNumbers: ['7'],
      sequence: '1000',
    },
  ]);
  await changes.versions.everythingChanged();
  const rolledBack = await keeper.book(request);
  expect(rolledBack.count).toBe(6);
  expect(rolledBack.figures('gov', {}).realizedGain).toBe(realized);
  expect(figuresOf(rolledBack)).toEqual(await replayed());
});

test('books count for their transactions: one larger than the budget is built for each request, not kept', async () => {
  let builds = 0;
  const history = createHistoryReader({ indexer: running.indexer });
  const counting: HistoryReader = { history: (...args) => (builds++, history.history(...args)), newerThan: (...args) => history.newerThan(...args) };
  const tight = keeperOver(counting, 5);
  const roomy = keeperOver(counting, 6);
  for (const keeper of [tight, tight, roomy, roomy]) expect((await keeper.book(request)).count).toBe(6);
  expect(builds).toBe(3);
});

test('the budget holds across books: a kept book pushed past it by another one is built again', async () => {
  let builds = 0;
  const history = createHistoryReader({ indexer: running.indexer });
  const counting: HistoryReader = { history: (...args) => (builds++, history.history(...args)), newerThan: (...args) => history.newerThan(...args) };
  const keeper = keeperOver(counting, 8);
  const chainAOnly = { ...request, chainIds: [chainA] };
  expect((await keeper.book(request)).count).toBe(6);
  expect((await keeper.book(chainAOnly)).count).toBe(3);
  await keeper.book(chainAOnly);
  expect(builds).toBe(2);
  await keeper.book(request);
  expect(builds).toBe(3);
});

test('a history arriving in many chunks, priced ahead and applied in order, makes the same book as one chunk', async () => {
  const history = createHistoryReader({ indexer: running.indexer });
  const whole: WalletLegs[] = [];
  for await (const chunk of history.history(wallet, [chainA, chainB])) whole.push(...chunk);
  expect(whole.length).toBeGreaterThan(4);
  const chunked = (size: number): HistoryReader => ({
    async *history() {
      for (let at = 0; at < whole.length; at += size) yield whole.slice(at, at + size);
    },
    newerThan: (...args) => history.newerThan(...args),
  });
  for (const size of [1, 2, whole.length]) {
    const book = await keeperOver(chunked(size)).book(request);
    expect(book.count).toBe(whole.length);
    expect(figuresOf(book)).toEqual(await replayed());
  }
});
