import type { TransactionRecord } from '@wallet-api/core/proto/indexer';
import { transactionId } from '@wallet-api/core/resources';
import { decodeSetCursor, encodeSetCursor, interleavePages, type ReadPage, type WalletPlace } from './wallet-set-cursor.js';

/** A record as the indexer orders them: newest first, then by block and index, both descending. */
const record = (chainId: string, minedAtMs: number, blockNumber: number, transactionIndex = 0): TransactionRecord =>
  ({ cursor: { chainId, minedAtMs: String(minedAtMs), blockNumber: String(blockNumber), transactionIndex } }) as TransactionRecord;
const key = (entry: TransactionRecord) => [BigInt(entry.cursor!.minedAtMs), BigInt(entry.cursor!.blockNumber), BigInt(entry.cursor!.transactionIndex)];
const newerFirst = (a: TransactionRecord, b: TransactionRecord) => {
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]! ? -1 : 1;
  return 0;
};

/** The indexer's page after `after`: what the route reads for one wallet. */
function readAfter(history: readonly TransactionRecord[], place: WalletPlace, size: number): ReadPage | undefined {
  if (place === 'done') return undefined;
  const start = place.after ? history.findIndex((entry) => newerFirst(entry, { cursor: place.after } as TransactionRecord) > 0) : 0;
  const rest = start === -1 ? [] : history.slice(start);
  return { transactions: rest.slice(0, size), hasMore: rest.length > size };
}

/** Follows the set's cursor through its encoded form, as a client follows links.next. */
function walk(histories: readonly TransactionRecord[][], size: number): TransactionRecord[][] {
  const pages: TransactionRecord[][] = [];
  let cursor: string | undefined;
  do {
    const places = decodeSetCursor(cursor, histories.length);
    const { records, next } = interleavePages(
      places,
      places.map((place, index) => readAfter(histories[index]!, place, size)),
      size,
    );
    pages.push(records);
    cursor = next ? encodeSetCursor(next) : undefined;
    if (pages.length > 1_000) throw new Error('the walk does not end');
  } while (cursor !== undefined);
  return pages;
}

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function history(next: () => number, chainId: string, length: number): TransactionRecord[] {
  // Few distinct times, so that both wallets and one wallet's own transactions often share one.
  return Array.from({ length }, (_, index) => record(chainId, 1_700_000_000_000 + Math.floor(next() * 8) * 1000, index, Math.floor(next() * 3))).sort(
    newerFirst,
  );
}

describe('the wallet-set transactions cursor', () => {
  test.each([1, 2, 3, 5, 100])(
    'pages of %i walked to the end hold the union of both histories, newest first, each once, every page full but the last',
    (size) => {
      const next = random(size);
      for (let round = 0; round < 40; round++) {
        const histories = [history(next, 'ethereum', Math.floor(next() * 12)), history(next, 'solana', Math.floor(next() * 12))];
        const pages = walk(histories, size);
        const served = pages.flat();
        expect(served.map((entry) => transactionId(entry.cursor!)).sort()).toEqual(
          histories
            .flat()
            .map((entry) => transactionId(entry.cursor!))
            .sort(),
        );
        const times = served.map((entry) => Number(entry.cursor!.minedAtMs));
        expect(times).toEqual([...times].sort((a, b) => b - a));
        // Each wallet's own order is kept (equal times included).
        for (const chain of ['ethereum', 'solana'])
          expect(served.filter((entry) => entry.cursor!.chainId === chain)).toEqual(histories[chain === 'ethereum' ? 0 : 1]);
        expect(pages.slice(0, -1).every((page) => page.length === size)).toBe(true);
      }
    },
  );

  test('a page of N is the N newest remaining of both; the first address first on equal times; no links.next once both are at their end', () => {
    const evm = [record('ethereum', 5000, 9), record('ethereum', 3000, 8), record('ethereum', 1000, 7)];
    const sol = [record('solana', 4000, 19), record('solana', 3000, 18)];
    const first = interleavePages(
      [{}, {}],
      [
        { transactions: evm.slice(0, 3), hasMore: false },
        { transactions: sol, hasMore: false },
      ],
      3,
    );
    expect(first.records).toEqual([evm[0], sol[0], evm[1]]);
    expect(first.next).toEqual([{ after: evm[1]!.cursor }, { after: sol[0]!.cursor }]);
    const last = interleavePages(
      first.next!,
      [
        { transactions: evm.slice(2), hasMore: false },
        { transactions: sol.slice(1), hasMore: false },
      ],
      3,
    );
    expect([last.records, last.next]).toEqual([[sol[1], evm[2]], undefined]);
  });

  test('a wallet at its end is not read again and stays at its end; one with nothing taken keeps its place', () => {
    const evm = [record('ethereum', 5000, 9)];
    const page = interleavePages(
      ['done', { after: evm[0]!.cursor }],
      [undefined, { transactions: [record('solana', 1000, 3), record('solana', 900, 2)], hasMore: true }],
      1,
    );
    expect(page.next).toEqual(['done', { after: record('solana', 1000, 3).cursor }]);
    const untouched = interleavePages(
      [{}, {}],
      [
        { transactions: [record('ethereum', 9000, 1)], hasMore: true },
        { transactions: [record('solana', 1000, 3)], hasMore: false },
      ],
      1,
    );
    expect(untouched.next).toEqual([{ after: record('ethereum', 9000, 1).cursor }, {}]);
  });

  test.each([
    ['not base64url JSON', 'bm90IGpzb24'],
    ['another number of wallets', encodeSetCursor([{}])],
    ['an entry of another shape', Buffer.from(JSON.stringify([[1, 2], null])).toString('base64url')],
    ['an id of another form', Buffer.from(JSON.stringify([['ethereum:1', '5'], null])).toString('base64url')],
    ['an object', Buffer.from(JSON.stringify({ a: 1 })).toString('base64url')],
  ])('400 naming page[after] for %s', (_case, cursor) => {
    expect(() => decodeSetCursor(cursor, 2)).toThrow(
      expect.objectContaining({ status: 400, detail: 'parameter page[after]: is not a cursor this endpoint returned for these addresses' }),
    );
  });
});
