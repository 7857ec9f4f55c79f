import type { WalletTransaction } from '@wallet-api/core/proto/events';
import { createFifoLedger, type FifoLedger, type FungibleStatistics } from './fifo-ledger.js';
import { transactionEntries, type FungibleRef } from './transaction-entries.js';

/** The fungible an implementation counts under; undefined leaves it out (spam, a contract that is no token). */
export type FungibleOf = (implementation: FungibleRef) => { fungibleId: string; decimals: number } | undefined;

export interface WalletLedgersRequest {
  wallet: string;
  /** The wallet's transactions on every chain, oldest first (block time, then chain order). */
  transactions: Iterable<WalletTransaction>;
  fungibleOf: FungibleOf;
  /** Value in the request's currency of an amount at a time (unix seconds); undefined without a price then. */
  valueAt(implementation: FungibleRef, amount: bigint, timestamp: number): number | undefined;
  /** Unix seconds: transactions before it move lots but their flows are not counted. */
  since?: number;
  /** Unix seconds: transactions after it are left out. */
  till?: number;
}

export interface FungibleLedger {
  decimals: number;
  statistics: FungibleStatistics;
  /** The implementations the wallet moved, as `<chain_id>:<address>` ('' address for native). */
  implementations: Set<string>;
}

export interface WalletLedgers {
  /** By fungible id. */
  fungibles: Map<string, FungibleLedger>;
  /** Fungibles with a movement that had no price at its time. */
  unpriced: Set<string>;
}

/**
 * Replays a wallet's transactions into one FIFO ledger per fungible: a fungible's implementations
 * on every chain share one queue of lots, so a sale on one chain consumes the oldest lot bought
 * on any.
 */
export function walletLedgers(request: WalletLedgersRequest): WalletLedgers {
  const ledgers = new Map<string, { decimals: number; ledger: FifoLedger; implementations: Set<string> }>();
  const unpriced = new Set<string>();
  for (const transaction of request.transactions) {
    const time = Number(transaction.blockTimestamp);
    if (request.till !== undefined && time > request.till) continue;
    const counted = request.since === undefined || time >= request.since;
    const { entries, unpriced: missing } = transactionEntries(transaction, request.wallet, (implementation, amount) => request.valueAt(implementation, amount, time));
    for (const implementation of missing) {
      const fungible = request.fungibleOf(implementation);
      if (fungible) unpriced.add(fungible.fungibleId);
    }
    for (const { fungible: implementation, entry } of entries) {
      const fungible = request.fungibleOf(implementation);
      if (!fungible) continue;
      let ledger = ledgers.get(fungible.fungibleId);
      if (!ledger) ledgers.set(fungible.fungibleId, (ledger = { decimals: fungible.decimals, ledger: createFifoLedger(), implementations: new Set() }));
      ledger.implementations.add(`${implementation.chainId}:${implementation.asset}`);
      ledger.ledger.apply(entry, counted);
    }
  }
  return {
    fungibles: new Map([...ledgers].map(([id, { decimals, ledger, implementations }]) => [id, { decimals, statistics: ledger.statistics(), implementations }])),
    unpriced,
  };
}
