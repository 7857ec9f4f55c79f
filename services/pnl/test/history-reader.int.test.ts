import type { WalletLegs } from '@wallet-api/core/proto/events';
import type { IndexerClient } from '@wallet-api/core/proto/indexer';
import { setupClickHouse, uniqueName } from '@wallet-api/core/testing';
import { walletLegs } from '@wallet-api/core/transactions';
import { blockRef, native, randomAddress, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import { createHistoryReader, TooManyTransactions } from '../src/history/history-reader.js';
import { startHistoryIndexer, type HistoryIndexer } from './setup-history.js';

// The pnl service's read of a wallet's history: the indexer's real gRPC service over ClickHouse,
// its legs streamed whole through StreamWalletLegs, paged after a known transaction through
// ListWalletHistory and turned oldest first; a wallet past the limit is refused.

const clickhouse = setupClickHouse();
const chainId = uniqueName('chain');
const wallet = randomAddress();
const other = randomAddress();
let running: HistoryIndexer;
let indexer: IndexerClient;

// Seven payments over three blocks, two sharing a timestamp (block number and index break ties).
const blocks = [blockRef(chainId, 10, 1_700_000_000), blockRef(chainId, 11, 1_700_000_000), blockRef(chainId, 12, 1_700_000_012)];
const payments = [
  [0, 0],
  [0, 1],
  [1, 0],
  [1, 2],
  [2, 0],
  [2, 1],
  [2, 5],
].map(([block, index]) =>
  transaction(blocks[block!]!, index!, {
    from: other,
    to: wallet,
    transfers: [{ asset: native, amount: String(block! * 10 + index! + 1), sender: other, recipient: wallet }],
  }),
);
// What a replay reads of each payment, streamed as the indexer stores it or read from its pages.
const stored = payments.map((payment) => walletLegs(payment, wallet));

beforeAll(async () => {
  running = await startHistoryIndexer(clickhouse, { fixture: { tokens: [], dapps: [] }, transactions: payments });
  indexer = running.indexer;
});

afterAll(async () => {
  await running?.stop();
  await clickhouse.close();
});

/** Every chunk of a streamed history, in order. */
async function whole(chunks: AsyncIterable<WalletLegs[]>): Promise<WalletLegs[]> {
  const transactions: WalletLegs[] = [];
  for await (const chunk of chunks) transactions.push(...chunk);
  return transactions;
}

test('the whole history is streamed oldest first; what follows a known transaction is paged in pages of any size', async () => {
  expect(stored.every((legs) => legs.legs.length === 1)).toBe(true);
  expect(await whole(createHistoryReader({ indexer }).history(wallet, [chainId]))).toEqual(stored);
  for (const pageSize of [1, 2, 3, 7, 1_000]) {
    const reader = createHistoryReader({ indexer, pageSize });
    expect(await reader.newerThan(wallet, chainId, undefined)).toEqual(stored);
    expect(await reader.newerThan(wallet, chainId, stored[2])).toEqual(stored.slice(3));
    expect(await reader.newerThan(wallet, chainId, stored.at(-1))).toEqual([]);
  }
});

test('the pages after a known transaction start small and double up to the page size', async () => {
  const asked: number[] = [];
  const listWalletHistory = indexer.listWalletHistory;
  const recording = Object.assign(Object.create(indexer) as IndexerClient, {
    listWalletHistory: (...args: Parameters<IndexerClient['listWalletHistory']>) => {
      asked.push((args[0] as { pageSize: number }).pageSize);
      return (listWalletHistory as (...call: typeof args) => ReturnType<IndexerClient['listWalletHistory']>).apply(indexer, args);
    },
  });
  for (const [firstPageSize, pageSize, sizes] of [
    [1, 1_000, [1, 2, 4]],
    [1, 3, [1, 2, 3, 3]],
    [20, 1_000, [20]],
  ] as const) {
    asked.length = 0;
    const reader = createHistoryReader({ indexer: recording, firstPageSize, pageSize });
    expect(await reader.newerThan(wallet, chainId, undefined)).toEqual(stored);
    expect(asked).toEqual(sizes);
    expect(await reader.newerThan(wallet, chainId, stored[2])).toEqual(stored.slice(3));
  }
});

test('a wallet with more transactions than the limit is refused', async () => {
  await expect(whole(createHistoryReader({ indexer, maxTransactions: 6 }).history(wallet, [chainId]))).rejects.toBeInstanceOf(TooManyTransactions);
  expect(await whole(createHistoryReader({ indexer, maxTransactions: 7 }).history(wallet, [chainId]))).toHaveLength(7);
});

test('a wallet without transactions has an empty history', async () => {
  expect(await whole(createHistoryReader({ indexer }).history(randomAddress(), [chainId]))).toEqual([]);
});
