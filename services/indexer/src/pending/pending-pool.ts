import type { Logger } from '@wallet-api/core/logger';
import type { WalletTransaction } from '@wallet-api/core/proto/events';
import { BaseError, MethodNotFoundRpcError, MethodNotSupportedRpcError, type PublicClient } from 'viem';
import { decodePending } from './decode-pending.js';
import { applyPoolDiff, diffPool, type PoolEntry } from './pool-diff.js';
import { poolTransactions, type PoolTransaction, type TxPoolContent } from './pool-transaction.js';

/** A decoded pending transaction and when it was first seen in the pool. */
export interface PendingTransaction {
  firstSeenMs: number;
  transaction: WalletTransaction;
}

/** One EVM chain's pending pool as the indexer last saw it. */
export interface PendingPool {
  chainId: string;
  /** The decoded transactions of the last poll; they leave once mined or dropped. */
  transactions(): PendingTransaction[];
  /** Reads the pool once: 'unsupported' when the node has no pending pool (or cannot simulate). */
  poll(): Promise<'polled' | 'unsupported'>;
  /** Polls every `pollIntervalMs` until `signal` aborts or the node turns out to have no pool. */
  run(signal: AbortSignal): Promise<void>;
}

export interface PendingPoolOptions {
  chainId: string;
  client: Pick<PublicClient, 'request' | 'getBlock'>;
  pollIntervalMs: number;
  logger: Logger;
}

/** The node does not know the method: a pool it does not expose, or a tracer it lacks. */
function isMethodNotFound(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return (
    error.walk(
      (cause) => cause instanceof MethodNotFoundRpcError || cause instanceof MethodNotSupportedRpcError || (cause as { code?: unknown }).code === -32601,
    ) !== null
  );
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Watches a node's pending pool with `txpool_content`: on an idle chain one call answering two
 * empty objects per poll. New transactions are decoded once (a failed simulation is tried again
 * at the next poll); a transaction no longer in the pool was mined or dropped and leaves.
 */
export function createPendingPool({ chainId, client, pollIntervalMs, logger }: PendingPoolOptions): PendingPool {
  let entries = new Map<string, PoolEntry<WalletTransaction>>();
  let unsupported = false;
  // Pending transactions whose simulation failed: warned about once, at debug after.
  const failing = new Set<string>();

  async function decodeNew(pooled: ReadonlyMap<string, PoolTransaction>): Promise<void> {
    const undecoded = [...entries.values()].filter((entry) => entry.decoded === undefined);
    if (undecoded.length === 0) return;
    const head = await client.getBlock({ blockTag: 'latest' });
    await Promise.all(
      undecoded.map(async (entry) => {
        try {
          const decoded = await decodePending(client, chainId, pooled.get(entry.hash)!, entry.firstSeenMs, head.baseFeePerGas ?? undefined);
          // The poll that follows may have removed it meanwhile.
          if (entries.has(entry.hash)) entries.set(entry.hash, { ...entry, decoded });
        } catch (error) {
          if (isMethodNotFound(error)) throw error;
          const log = failing.has(entry.hash) ? logger.debug.bind(logger) : logger.warn.bind(logger);
          failing.add(entry.hash);
          log({ err: error, chainId, hash: entry.hash }, 'cannot simulate a pending transaction; trying again at the next poll');
        }
      }),
    );
  }

  async function poll(): Promise<'polled' | 'unsupported'> {
    if (unsupported) return 'unsupported';
    try {
      const content = (await client.request({ method: 'txpool_content' as never })) as TxPoolContent;
      const pooled = new Map(poolTransactions(content).map((transaction) => [transaction.hash.toLowerCase(), transaction] as const));
      const diff = diffPool(entries, [...pooled.keys()]);
      entries = applyPoolDiff(entries, diff, Date.now());
      for (const hash of diff.removed) failing.delete(hash);
      await decodeNew(pooled);
      return 'polled';
    } catch (error) {
      if (!isMethodNotFound(error)) throw error;
      unsupported = true;
      entries = new Map();
      logger.info({ chainId }, 'the node has no pending pool (txpool_content or debug_traceCall not found): no pending transactions for this chain');
      return 'unsupported';
    }
  }

  return {
    chainId,
    transactions: () => [...entries.values()].flatMap((entry) => (entry.decoded ? [{ firstSeenMs: entry.firstSeenMs, transaction: entry.decoded }] : [])),
    poll,
    async run(signal) {
      while (!signal.aborted) {
        try {
          if ((await poll()) === 'unsupported') return;
        } catch (error) {
          logger.warn({ err: error, chainId }, 'cannot read the pending pool; trying again');
        }
        await sleep(pollIntervalMs, signal);
      }
    },
  };
}
