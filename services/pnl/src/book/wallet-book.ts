import type { WalletTransaction } from '@wallet-api/core/proto/events';
import { createFifoLedger, type FifoLedger, type LedgerFigures } from '../fifo/fifo-ledger.js';
import { implementationKey, transactionEntries, type FungibleRef } from '../fifo/transaction-entries.js';
import { createStatisticsSeries, windowFigures, type StatisticsSeries } from './statistics-series.js';

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
  apply(transactions: readonly WalletTransaction[], pricing: { fungibleOf: FungibleOf; valueAt: ValueAt }): void;
  /** By ledger key (fungible id, or implementation). */
  readonly ledgers: ReadonlyMap<string, BookLedger>;
  /** A ledger's figures counting the flows of transactions in [since, till] (unix seconds), its lots as they stood at till. */
  figures(key: string, window: { since?: number; till?: number }): LedgerFigures;
  /** How many applied transactions lie strictly between two times (unix seconds, either order). */
  transactionsBetween(a: number, b: number): number;
  /** The newest transaction applied on each chain. */
  readonly newestByChain: ReadonlyMap<string, WalletTransaction>;
  readonly newest: WalletTransaction | undefined;
  readonly count: number;
}

/** The indexer's history order: block time, block number, transaction index, chain. */
export function compareHistoryOrder(a: WalletTransaction, b: WalletTransaction): number {
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
export function createWalletBook(wallet: string): WalletBook {
  type KeptLedger = BookLedger & { ledger: FifoLedger; last?: FungibleRef };
  const ledgers = new Map<string, KeptLedger>();
  const times: number[] = [];
  const newestByChain = new Map<string, WalletTransaction>();
  let newest: WalletTransaction | undefined;

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
    apply(transactions, { fungibleOf, valueAt }) {
      const touched: KeptLedger[] = [];
      for (const transaction of transactions) {
        if (newest && compareHistoryOrder(transaction, newest) <= 0) throw new Error(`transaction ${transaction.hash} on ${transaction.chainId} does not follow the book's newest`);
        const time = Number(transaction.blockTimestamp);
        const { entries, unpriced } = transactionEntries(transaction, wallet, (implementation, amount) => valueAt(implementation, amount, time));
        touched.length = 0;
        for (const { fungible: implementation, entry } of entries) {
          const fungible = fungibleOf(implementation);
          if (!fungible) continue;
          let ledger = ledgers.get(fungible.fungibleId);
          if (!ledger) {
            ledger = { decimals: fungible.decimals, implementations: new Set(), firstUnpriced: Infinity, series: createStatisticsSeries(), ledger: createFifoLedger(fungible.decimals) };
            ledgers.set(fungible.fungibleId, ledger);
          }
          // Most entries repeat the ledger's last implementation: no key is built for them.
          if (ledger.last?.chainId !== implementation.chainId || ledger.last.asset !== implementation.asset) {
            ledger.implementations.add(implementationKey(implementation));
            ledger.last = implementation;
          }
          ledger.ledger.apply(entry);
          if (!touched.includes(ledger)) touched.push(ledger);
        }
        for (const implementation of unpriced) {
          const ledger = ledgers.get(fungibleOf(implementation)?.fungibleId ?? '');
          if (ledger) ledger.firstUnpriced = Math.min(ledger.firstUnpriced, time);
        }
        for (const ledger of touched) ledger.series.record(time, ledger.ledger.figures());
        times.push(time);
        newestByChain.set(transaction.chainId, transaction);
        newest = transaction;
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
