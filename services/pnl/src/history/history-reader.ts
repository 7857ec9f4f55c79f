import { serverStream, unary } from '@wallet-api/core/grpc';
import { WalletTransactionLegs } from '@wallet-api/core/proto/events';
import type { IndexerClient, TransactionCursor } from '@wallet-api/core/proto/indexer';
import { historyCursor } from '@wallet-api/core/transactions';

/** Spec 4.2 rule 4: a wallet with more transactions than this is refused (422). */
export const maxWalletTransactions = 1_000_000;

/** The wallet's history is longer than a PnL is computed for. */
export class TooManyTransactions extends Error {
  constructor(readonly limit: number) {
    super(`the wallet has more than ${limit} transactions`);
    this.name = 'TooManyTransactions';
  }
}

export interface HistoryReader {
  /**
   * The wallet's transactions on the chains, oldest first, in the chunks they arrive in (a chunk can
   * be priced while the next is read); TooManyTransactions once past the limit.
   */
  history(address: string, chainIds: readonly string[]): AsyncIterable<WalletTransactionLegs[]>;
  /**
   * The wallet's transactions on one chain after `known` (its newest seen there; every one without
   * it), oldest first; undefined when `known` is no longer in the history (rolled back).
   */
  newerThan(address: string, chainId: string, known: WalletTransactionLegs | undefined): Promise<WalletTransactionLegs[] | undefined>;
}

const sameTransaction = (a: WalletTransactionLegs, b: WalletTransactionLegs) => a.chainId === b.chainId && a.blockHash === b.blockHash && a.transactionIndex === b.transactionIndex;

export interface HistoryReaderOptions {
  indexer: IndexerClient;
  /**
   * Transactions per ListWalletHistory page (at most the indexer's 1,000) in the reads after a
   * book's newest: the first page holds `firstPageSize` (a book mostly follows a few new
   * transactions), each next one twice its predecessor up to `pageSize`.
   */
  firstPageSize?: number;
  pageSize?: number;
  /**
   * How long the whole history's stream may take: it is read as fast as its chunks are priced, so
   * a wallet at the million-transaction limit takes about a minute here (10 minutes unless given).
   */
  streamDeadlineMs?: number;
  maxTransactions?: number;
}

/**
 * A wallet's decoded history from the indexer: the whole of it in one StreamWalletHistory read, what
 * followed a known transaction in ListWalletHistory pages (newest first, turned around).
 */
export function createHistoryReader(options: HistoryReaderOptions): HistoryReader {
  const { indexer } = options;
  const pageSize = options.pageSize ?? 1_000;
  const firstPageSize = Math.min(options.firstPageSize ?? 20, pageSize);
  const limit = options.maxTransactions ?? maxWalletTransactions;
  const page = (address: string, chainIds: readonly string[], after: TransactionCursor | undefined, size: number) =>
    unary(indexer, indexer.listWalletHistory, { address, chainIds: [...chainIds], after, pageSize: size }, { name: 'Indexer/ListWalletHistory' });
  return {
    async *history(address, chainIds) {
      let count = 0;
      const chunks = serverStream(indexer, indexer.streamWalletHistory, { address, chainIds: [...chainIds] }, { name: 'Indexer/StreamWalletHistory', deadlineMs: options.streamDeadlineMs ?? 600_000 });
      for await (const { transactions } of chunks) {
        count += transactions.length;
        // Leaving the loop cancels the stream: the rest of a refused wallet is never read.
        if (count > limit) throw new TooManyTransactions(limit);
        // Only what a replay reads is decoded: acts, approvals and wallets are skipped, not built.
        yield transactions.map((encoded) => WalletTransactionLegs.decode(encoded));
      }
    },
    async newerThan(address, chainId, known) {
      const newestFirst: WalletTransactionLegs[] = [];
      const knownBlock = known === undefined ? -1n : BigInt(known.blockNumber);
      let after: TransactionCursor | undefined;
      for (let size = firstPageSize; ; size = Math.min(size * 2, pageSize)) {
        const { transactions, hasMore } = await page(address, [chainId], after, size);
        for (const transaction of transactions) {
          if (known && sameTransaction(transaction, known)) return newestFirst.reverse();
          // Past the known transaction's block without meeting it: it was rolled back.
          if (BigInt(transaction.blockNumber) < knownBlock) return undefined;
          newestFirst.push(transaction);
        }
        if (newestFirst.length > limit) throw new TooManyTransactions(limit);
        if (!hasMore || transactions.length === 0) return known ? undefined : newestFirst.reverse();
        after = historyCursor(transactions.at(-1)!);
      }
    },
  };
}
