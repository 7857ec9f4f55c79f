import type { WalletLegs } from '@wallet-api/core/proto/events';
import { createFifoLedger, type FifoLedger, type LedgerFigures, type LedgerState } from '../fifo/fifo-ledger.js';
import { implementationKey, transactionEntries, type FungibleRef } from '../fifo/transaction-entries.js';
import { createStatisticsSeries, windowFigures, type SeriesMark, type StatisticsSeries } from './statistics-series.js';

/** The ledger an implementation counts under (its fungible, or itself); undefined leaves it out (spam, a contract that is no token). */
export type FungibleOf = (implementation: FungibleRef) => { fungibleId: string; decimals: number } | undefined;

/** Value in the request's currency of an amount (base units) at a time (unix seconds); undefined without a price then. */
export type ValueAt = (implementation: FungibleRef, amount: bigint, timestamp: number) => number | undefined;

export interface BookLedger {
  decimals: number;
  /** The implementations the wallet moved, as `<chain_id>:<address>` ('' address for native). */
  implementations: Set<string>;
  /** The earliest time (unix seconds) a movement of it had no price: from then on it is left out. */
  firstUnpriced: number;
  series: StatisticsSeries;
}

export interface WalletBook {
  readonly wallet: string;
  /** Applies transactions that follow every one applied (the indexer's order, oldest first). */
  apply(transactions: readonly WalletLegs[], pricing: { fungibleOf: FungibleOf; valueAt: ValueAt }): void;
  /** By ledger key (fungible id, or implementation). */
  readonly ledgers: ReadonlyMap<string, BookLedger>;
  /** A ledger's figures counting the flows of transactions in [since, till] (unix seconds), its lots as they stood at till. */
  figures(key: string, window: { since?: number; till?: number }): LedgerFigures;
  /** How many applied transactions lie strictly between two times (unix seconds, either order). */
  transactionsBetween(a: number, b: number): number;
  /** The newest transaction applied on each chain. */
  readonly newestByChain: ReadonlyMap<string, WalletLegs>;
  readonly newest: WalletLegs | undefined;
  readonly count: number;
  /** The newest applied transactions that `rewind` can take back, oldest first. */
  readonly recent: readonly WalletLegs[];
  /** The newest applied transaction `rewind` can no longer take back; undefined when it can take back every one. */
  readonly beforeRecent: WalletLegs | undefined;
  /** Takes back the newest `count` transactions (at most `recent`'s), as if they were never applied; false, changing nothing, when it cannot. */
  rewind(count: number): boolean;
}

/** Transactions a book can take back unless told otherwise: a price move or a late chain reaches the last seconds only. */
export const defaultRecentTransactions = 32;

/** The indexer's history order: block time, block number, transaction index, chain. */
export function compareHistoryOrder(a: WalletLegs, b: WalletLegs): number {
  const byTime = Number(a.blockTimestamp) - Number(b.blockTimestamp);
  if (byTime !== 0) return byTime;
  const byBlock = Number(a.blockNumber) - Number(b.blockNumber);
  if (byBlock !== 0) return byBlock;
  const byIndex = a.transactionIndex - b.transactionIndex;
  if (byIndex !== 0) return byIndex;
  return a.chainId < b.chainId ? -1 : a.chainId > b.chainId ? 1 : 0;
}

/** The first index of `times` (sorted) holding a value above `time`. */
function upperBound(times: readonly number[], time: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle]! <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * One wallet's replayed history: a FIFO ledger per fungible (its implementations on every chain
 * share one queue of lots, so a sale on one chain consumes the oldest lot bought on any), each
 * with the series of its cumulative figures after every second it moved in. New transactions
 * extend the ledgers where they stand; every `since`/`till` is then read from the series.
 */
export function createWalletBook(wallet: string, options: { recentTransactions?: number } = {}): WalletBook {
  type KeptLedger = BookLedger & { ledger: FifoLedger; last?: FungibleRef };
  /** A ledger as it stood before a transaction first touched it. */
  interface LedgerBefore {
    key: string;
    ledger: KeptLedger;
    created: boolean;
    fifo: LedgerState;
    series: SeriesMark;
    last: FungibleRef | undefined;
    firstUnpriced: number;
    addedImplementations: string[];
  }
  /** What taking a transaction back restores. */
  interface Undo {
    transaction: WalletLegs;
    times: number;
    newestOfChain: WalletLegs | undefined;
    newest: WalletLegs | undefined;
    ledgers: LedgerBefore[];
  }
  const keep = options.recentTransactions ?? defaultRecentTransactions;
  const ledgers = new Map<string, KeptLedger>();
  const times: number[] = [];
  const newestByChain = new Map<string, WalletLegs>();
  let newest: WalletLegs | undefined;
  const undos: Undo[] = [];
  let beforeRecent: WalletLegs | undefined;

  /** The ledger's state before this transaction, taken the first time the transaction touches it (when it is one `rewind` can take back). */
  function before(undo: Undo | undefined, key: string, ledger: KeptLedger, created: boolean): LedgerBefore | undefined {
    if (!undo) return undefined;
    let found = undo.ledgers.find((entry) => entry.ledger === ledger);
    if (!found) {
      found = {
        key,
        ledger,
        created,
        fifo: ledger.ledger.state(),
        series: ledger.series.mark(),
        last: ledger.last,
        firstUnpriced: ledger.firstUnpriced,
        addedImplementations: [],
      };
      undo.ledgers.push(found);
    }
    return found;
  }

  return {
    wallet,
    ledgers,
    newestByChain,
    get newest() {
      return newest;
    },
    get count() {
      return times.length;
    },
    get recent() {
      return undos.map((undo) => undo.transaction);
    },
    get beforeRecent() {
      return beforeRecent;
    },
    rewind(count) {
      if (count > undos.length) return false;
      const undone = undos.slice(undos.length - count);
      if (!undone.every((undo) => undo.ledgers.every((entry) => entry.created || entry.ledger.ledger.canRestore(entry.fifo)))) return false;
      for (const undo of undone.reverse()) {
        for (const entry of undo.ledgers) {
          if (entry.created) {
            ledgers.delete(entry.key);
            continue;
          }
          entry.ledger.ledger.restore(entry.fifo);
          entry.ledger.series.restore(entry.series);
          entry.ledger.last = entry.last;
          entry.ledger.firstUnpriced = entry.firstUnpriced;
          for (const key of entry.addedImplementations) entry.ledger.implementations.delete(key);
        }
        times.length = undo.times;
        if (undo.newestOfChain) newestByChain.set(undo.transaction.chainId, undo.newestOfChain);
        else newestByChain.delete(undo.transaction.chainId);
        newest = undo.newest;
      }
      undos.length -= count;
      return true;
    },
    apply(transactions, { fungibleOf, valueAt }) {
      const touched: KeptLedger[] = [];
      // Only the batch's last `keep` can be taken back once it is applied: a replay of 100,000
      // transactions notes what to restore for those alone.
      const journalFrom = transactions.length - keep;
      for (const [index, transaction] of transactions.entries()) {
        if (newest && compareHistoryOrder(transaction, newest) <= 0)
          throw new Error(
            `transaction ${transaction.transactionIndex} of block ${transaction.blockNumber} on ${transaction.chainId} does not follow the book's newest`,
          );
        const time = Number(transaction.blockTimestamp);
        const { entries, unpriced } = transactionEntries(transaction, (implementation, amount) => valueAt(implementation, amount, time));
        const undo: Undo | undefined =
          index >= journalFrom ? { transaction, times: times.length, newestOfChain: newestByChain.get(transaction.chainId), newest, ledgers: [] } : undefined;
        touched.length = 0;
        for (const { fungible: implementation, entry } of entries) {
          const fungible = fungibleOf(implementation);
          if (!fungible) continue;
          let ledger = ledgers.get(fungible.fungibleId);
          const created = !ledger;
          if (!ledger) {
            ledger = {
              decimals: fungible.decimals,
              implementations: new Set(),
              firstUnpriced: Infinity,
              series: createStatisticsSeries(),
              ledger: createFifoLedger(fungible.decimals),
            };
            ledgers.set(fungible.fungibleId, ledger);
          }
          const ledgerBefore = before(undo, fungible.fungibleId, ledger, created);
          // Most entries repeat the ledger's last implementation: no key is built for them.
          if (ledger.last?.chainId !== implementation.chainId || ledger.last.asset !== implementation.asset) {
            const key = implementationKey(implementation);
            if (!ledger.implementations.has(key)) {
              ledger.implementations.add(key);
              ledgerBefore?.addedImplementations.push(key);
            }
            ledger.last = implementation;
          }
          ledger.ledger.apply(entry);
          if (!touched.includes(ledger)) touched.push(ledger);
        }
        for (const implementation of unpriced) {
          const fungibleId = fungibleOf(implementation)?.fungibleId ?? '';
          const ledger = ledgers.get(fungibleId);
          if (!ledger) continue;
          before(undo, fungibleId, ledger, false);
          ledger.firstUnpriced = Math.min(ledger.firstUnpriced, time);
        }
        for (const ledger of touched) ledger.series.record(time, ledger.ledger.figures());
        times.push(time);
        newestByChain.set(transaction.chainId, transaction);
        newest = transaction;
        if (undo) {
          undos.push(undo);
          if (undos.length > keep) beforeRecent = undos.shift()!.transaction;
        } else {
          undos.length = 0;
          beforeRecent = transaction;
        }
      }
    },
    figures(key, { since, till }) {
      const series = ledgers.get(key)!.series;
      return windowFigures(since === undefined ? series.at(-Infinity) : series.at(since - 1), series.at(till ?? Infinity));
    },
    transactionsBetween(a, b) {
      const [low, high] = a <= b ? [a, b] : [b, a];
      // Strictly between: after `low`, before `high`.
      return Math.max(0, upperBound(times, high - 1) - upperBound(times, low));
    },
  };
}
