import { serverStream, unary } from '@wallet-api/core/grpc';
import { WalletLegs } from '@wallet-api/core/proto/events';
import type { IndexerClient, TransactionCursor } from '@wallet-api/core/proto/indexer';
import { historyCursor, walletLegs } from '@wallet-api/core/transactions';

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
   * The wallet's legs of its transactions on the chains, oldest first, in the chunks they arrive in
   * (a chunk can be priced while the next is read); TooManyTransactions once past the limit.
   */
  history(address: string, chainIds: readonly string[]): AsyncIterable<WalletLegs[]>;
  /**
   * The wallet's legs of its transactions on one chain after `known` (its newest seen there; every
   * one without it), oldest first; undefined when `known` is no longer in the history (rolled back).
   */
  newerThan(address: string, chainId: string, known: WalletLegs | undefined): Promise<WalletLegs[] | undefined>;
}

type Identity = Pick<WalletLegs, 'chainId' | 'blockHash' | 'transactionIndex'>;
const sameTransaction = (a: Identity, b: Identity) => a.chainId === b.chainId && a.blockHash === b.blockHash && a.transactionIndex === b.transactionIndex;

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
 * A wallet's history from the indexer as its legs (core walletLegs): the whole of it in one
 * StreamWalletLegs read of the legs the indexer stores, what followed a known transaction in
 * ListWalletHistory pages (newest first, turned around), read into legs here.
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
      const chunks = serverStream(
        indexer,
        indexer.streamWalletLegs,
        { address, chainIds: [...chainIds] },
        { name: 'Indexer/StreamWalletLegs', deadlineMs: options.streamDeadlineMs ?? 600_000 },
      );
      for await (const { legs } of chunks) {
        count += legs.length;
        // Leaving the loop cancels the stream: the rest of a refused wallet is never read.
        if (count > limit) throw new TooManyTransactions(limit);
        yield legs.map((encoded) => WalletLegs.decode(encoded));
      }
    },
    async newerThan(address, chainId, known) {
      const newestFirst: WalletLegs[] = [];
      const knownBlock = known === undefined ? -1n : BigInt(known.blockNumber);
      let after: TransactionCursor | undefined;
      for (let size = firstPageSize; ; size = Math.min(size * 2, pageSize)) {
        const { transactions, hasMore } = await page(address, [chainId], after, size);
        for (const transaction of transactions) {
          if (known && sameTransaction(transaction, known)) return newestFirst.reverse();
          // Past the known transaction's block without meeting it: it was rolled back.
          if (BigInt(transaction.blockNumber) < knownBlock) return undefined;
          newestFirst.push(walletLegs(transaction, address));
        }
        if (newestFirst.length > limit) throw new TooManyTransactions(limit);
        if (!hasMore || transactions.length === 0) return known ? undefined : newestFirst.reverse();
        after = historyCursor(transactions.at(-1)!);
      }
    },
  };
}
