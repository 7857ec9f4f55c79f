import { LRUCache } from 'lru-cache';
import { WalletLegs, WalletTransaction } from '@wallet-api/core/proto/events';
import type { TransactionIdentity } from './wallet-transaction-query.js';

/**
 * Decoded wallet bodies by wallet and transaction identity (chain, block hash, index): a row's body
 * is the wallet's part of the transaction (walletPart), good for that wallet only. A body never
 * changes once stored: a replay stores the same bytes, and a rollback orphans the block's hash
 * instead of rewriting its rows, so a kept body is good for as long as it is kept. Pages of history
 * read only the bodies missing here, and the writer keeps what it stores, so the page read again
 * after a wallet's new transaction reads no body at all.
 */
export interface TransactionBodies {
  get(identity: TransactionIdentity, wallet: string): WalletTransaction | undefined;
  /** Keeps a wallet's body with its stored size (base64 characters), which bounds the memory it may take. */
  keep(transaction: WalletTransaction, wallet: string, storedSize: number): void;
}

/** Identity of a transaction in the cache and in query answers. */
export const identityKey = (identity: TransactionIdentity): string => `${identity.chainId}|${identity.blockHash}|${identity.transactionIndex}`;

export interface TransactionBodiesOptions {
  /** Base64 characters kept; decoded objects take about three times as many bytes. */
  maxStoredSize?: number;
}

export function createTransactionBodies(options: TransactionBodiesOptions = {}): TransactionBodies {
  const bodies = new LRUCache<string, WalletTransaction>({ maxSize: options.maxStoredSize ?? 16 * 1024 * 1024 });
  return {
    get: (identity, wallet) => bodies.get(`${identityKey(identity)}|${wallet}`),
    keep: (transaction, wallet, storedSize) => void bodies.set(`${identityKey(transaction)}|${wallet}`, transaction, { size: Math.max(1, storedSize) }),
  };
}

/** The body stored for a transaction: its protobuf encoding in base64. */
export const encodeBody = (transaction: WalletTransaction): string => Buffer.from(WalletTransaction.encode(transaction).finish()).toString('base64');

export const decodeBody = (body: string): WalletTransaction => WalletTransaction.decode(Buffer.from(body, 'base64'));

/** The legs stored beside a wallet's row (`legs`): their protobuf encoding in base64. */
export const encodeLegs = (legs: WalletLegs): string => Buffer.from(WalletLegs.encode(legs).finish()).toString('base64');
