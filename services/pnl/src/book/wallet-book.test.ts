import fc from 'fast-check';
import { AssetKind, WalletTransaction, type Transfer, type WalletLegs } from '@wallet-api/core/proto/events';
import { walletLegs } from '@wallet-api/core/transactions';
import type { FungibleRef } from '../fifo/transaction-entries.js';
import { createWalletBook, type FungibleOf, type WalletBook } from './wallet-book.js';

const wallet = '0x00000000000000000000000000000000000000aa';
const pool = '0x00000000000000000000000000000000000000cc';
const usdc = '0x00000000000000000000000000000000000000d1';
const gov = '0x00000000000000000000000000000000000000d2';
const spam = '0x00000000000000000000000000000000000000d3';
const unit = 10n ** 18n;

const token = (address: string, amount: bigint, sender: string, recipient: string): Transfer => ({
  actId: 1,
  asset: { kind: AssetKind.ASSET_KIND_ERC20, address, tokenId: '' },
  amount: amount.toString(),
  sender,
  recipient,
});

/** The wallet swaps `usdcAmount` USDC for `govAmount` GOV (or back when `sell`), fee paid by someone else. */
function swap(chainId: string, time: number, usdcAmount: bigint, govAmount: bigint, sell = false): WalletLegs {
  const [given, got] = sell
    ? [token(gov, govAmount, wallet, pool), token(usdc, usdcAmount, pool, wallet)]
    : [token(usdc, usdcAmount, wallet, pool), token(gov, govAmount, pool, wallet)];
  return walletLegs(
    WalletTransaction.fromPartial({
      chainId,
      blockTimestamp: String(time),
      blockNumber: String(time),
      from: pool,
      fee: '0',
      paymaster: '',
      transfers: [given, got],
    }),
    wallet,
  );
}

// USDC and GOV are one fungible each on both chains; the spam token is none.
const fungibleOf: FungibleOf = ({ asset }) =>
  asset === usdc ? { fungibleId: 'usdc', decimals: 18 } : asset === gov ? { fungibleId: 'gov', decimals: 18 } : undefined;
const valueAt = ({ asset }: FungibleRef, amount: bigint) => (asset === usdc ? Number(amount) / 1e18 : undefined);

function bookOf(transactions: readonly WalletLegs[]): WalletBook {
  const book = createWalletBook(wallet);
  book.apply(transactions, { fungibleOf, valueAt });
  return book;
}

const history = [swap('ethereum', 100, 100n * unit, unit), swap('base', 200, 200n * unit, unit), swap('base', 300, 300n * unit, unit, true)];

test('implementations on every chain share lots: a sale on base consumes the lot bought on ethereum first', () => {
  const book = bookOf(history);
  expect(book.figures('gov', {})).toMatchObject({ realizedGain: 200, realizedCostBasis: 100, totalInvested: 300, openUnits: 1, openCost: 200 });
  expect([...book.ledgers.get('gov')!.implementations].sort()).toEqual([`base:${gov}`, `ethereum:${gov}`]);
  // GOV has no price of its own: each trade values it at the USDC on the other side.
  expect(book.ledgers.get('gov')!.firstUnpriced).toBe(Infinity);
});

test('since: earlier sales still take their lots but only later flows count; till reads the ledger as it stood', () => {
  const book = bookOf([...history, swap('ethereum', 400, 500n * unit, unit, true)]);
  // The sale at 300 took the 100 lot; the one at 400 takes the 200 lot.
  expect(book.figures('gov', { since: 400 })).toMatchObject({ realizedGain: 300, realizedCostBasis: 200, totalInvested: 0, openUnits: 0, openCost: 0 });
  expect(book.figures('gov', { till: 200 })).toMatchObject({ realizedGain: 0, totalInvested: 300, openUnits: 2, openCost: 300 });
  expect(book.figures('gov', { since: 250, till: 350 })).toMatchObject({
    realizedGain: 200,
    realizedCostBasis: 100,
    totalInvested: 0,
    openUnits: 1,
    openCost: 200,
  });
  expect(book.figures('gov', { till: 99 })).toMatchObject({ realizedGain: 0, totalInvested: 0, openUnits: 0 });
});

test('a book extended transaction by transaction equals one replayed at once; a transaction out of order is refused', () => {
  const all = [...history, swap('ethereum', 400, 500n * unit, unit, true)];
  const extended = createWalletBook(wallet);
  for (const transaction of all) extended.apply([transaction], { fungibleOf, valueAt });
  for (const window of [{}, { since: 200 }, { till: 300 }, { since: 300, till: 400 }])
    expect(extended.figures('gov', window)).toEqual(bookOf(all).figures('gov', window));
  expect(extended.count).toBe(4);
  expect(extended.newestByChain.get('base')?.blockTimestamp).toBe('300');
  expect(() => extended.apply([history[1]!], { fungibleOf, valueAt })).toThrow(/does not follow/);
});

test('transactions strictly between two times, in either order', () => {
  const book = bookOf(history);
  expect(book.transactionsBetween(100, 300)).toBe(1);
  expect(book.transactionsBetween(301, 99)).toBe(3);
  expect(book.transactionsBetween(100, 100)).toBe(0);
});

test('a token that is no fungible is left out', () => {
  const airdrop = walletLegs(
    WalletTransaction.fromPartial({
      chainId: 'ethereum',
      blockTimestamp: '50',
      from: pool,
      fee: '0',
      paymaster: '',
      transfers: [token(spam, unit, pool, wallet)],
    }),
    wallet,
  );
  expect(bookOf([airdrop]).ledgers.size).toBe(0);
});

describe('rewind', () => {
  /** A ledger's whole state as answers read it. */
  const snapshot = (book: WalletBook) => ({
    count: book.count,
    newest: book.newest?.blockTimestamp,
    newestByChain: [...book.newestByChain].map(([chain, transaction]) => [chain, transaction.blockTimestamp]).sort(),
    ledgers: [...book.ledgers]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, ledger]) => ({
        key,
        implementations: [...ledger.implementations].sort(),
        firstUnpriced: ledger.firstUnpriced,
        windows: [{}, { since: 150 }, { till: 250 }, { since: 120, till: 400 }].map((window) => book.figures(key, window)),
      })),
    between: book.transactionsBetween(0, 10_000),
  });

  const trade = fc.record({
    chain: fc.constantFrom('ethereum', 'base'),
    sell: fc.boolean(),
    usdc: fc.integer({ min: 1, max: 500 }),
    gov: fc.integer({ min: 1, max: 3 }),
    unpriced: fc.boolean(),
    spam: fc.boolean(),
  });
  /** Trades at increasing times from `start`, a few seconds apart (two in one second now and then). */
  const transactionsOf = (trades: readonly (typeof trade extends fc.Arbitrary<infer T> ? T : never)[], start: number) =>
    trades.map((spec, index) => {
      const transaction = swap(spec.chain, start + Math.floor(index * 1.5), BigInt(spec.usdc) * unit, BigInt(spec.gov) * unit, spec.sell);
      if (spec.spam) transaction.legs.push({ asset: spam, amount: unit.toString() });
      transaction.transactionIndex = index;
      return { transaction, unpriced: spec.unpriced };
    });
  /** USDC at `factor` dollars, none for the transactions marked unpriced. */
  const pricing = (unpricedTimes: ReadonlySet<number>, factor: number) => ({
    fungibleOf,
    valueAt: ({ asset }: FungibleRef, amount: bigint, time: number) =>
      asset === usdc && !unpricedTimes.has(time) ? (Number(amount) / 1e18) * factor : undefined,
  });

  test('taking back the newest transactions and applying others equals a book that never had them, whatever they were priced at', () => {
    fc.assert(
      fc.property(
        fc.array(trade, { maxLength: 12 }),
        fc.array(trade, { maxLength: 8 }),
        fc.array(trade, { maxLength: 8 }),
        fc.integer({ min: 2, max: 40 }),
        (kept, taken, instead, recent) => {
          const prefix = transactionsOf(kept, 100);
          const start = 100 + kept.length * 2;
          const [undone, applied] = [transactionsOf(taken, start), transactionsOf(instead, start)];
          const unpricedOf = (list: typeof prefix) => new Set(list.filter((entry) => entry.unpriced).map((entry) => Number(entry.transaction.blockTimestamp)));
          const rewound = createWalletBook(wallet, { recentTransactions: recent });
          rewound.apply(
            prefix.map((entry) => entry.transaction),
            pricing(unpricedOf(prefix), 1),
          );
          rewound.apply(
            undone.map((entry) => entry.transaction),
            pricing(unpricedOf(undone), 3),
          );
          const possible = undone.length <= Math.min(recent, prefix.length + undone.length);
          expect(rewound.rewind(undone.length)).toBe(possible);
          fc.pre(possible);
          rewound.apply(
            applied.map((entry) => entry.transaction),
            pricing(unpricedOf(applied), 2),
          );

          const fresh = createWalletBook(wallet);
          fresh.apply(
            prefix.map((entry) => entry.transaction),
            pricing(unpricedOf(prefix), 1),
          );
          fresh.apply(
            applied.map((entry) => entry.transaction),
            pricing(unpricedOf(applied), 2),
          );
          expect(snapshot(rewound)).toEqual(snapshot(fresh));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('the recent transactions are the newest kept, and the one before them is named', () => {
    const book = createWalletBook(wallet, { recentTransactions: 2 });
    book.apply(history, { fungibleOf, valueAt });
    expect(book.recent).toEqual(history.slice(1));
    expect(book.beforeRecent).toBe(history[0]);
    expect(book.rewind(3)).toBe(false);
    expect(book.count).toBe(3);
  });

  test('a rewind past lots the ledger let go of is refused and changes nothing', () => {
    const buys = Array.from({ length: 1_100 }, (_, index) => swap('ethereum', 1_000 + index, unit, unit));
    const book = createWalletBook(wallet);
    book.apply(buys, { fungibleOf, valueAt });
    // One sale takes every lot: the ledger lets the consumed ones go.
    book.apply([swap('ethereum', 5_000, 2_000n * unit, 1_100n * unit, true)], { fungibleOf, valueAt });
    const before = book.figures('gov', {});
    expect(book.rewind(1)).toBe(false);
    expect(book.figures('gov', {})).toEqual(before);
    expect(book.count).toBe(1_101);
  });
});
