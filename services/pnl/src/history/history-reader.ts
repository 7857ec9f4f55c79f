import { unary } from '@wallet-api/core/grpc';
import type { WalletTransaction } from '@wallet-api/core/proto/events';
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
  /** The wallet's transactions on the chains, oldest first; TooManyTransactions past the limit. */
  history(address: string, chainIds: readonly string[]): Promise<WalletTransaction[]>;
}

export interface HistoryReaderOptions {
  indexer: IndexerClient;
  /** Transactions per ListWalletHistory page (at most the indexer's 1,000). */
  pageSize?: number;
  maxTransactions?: number;
}

/** A wallet's decoded history from the indexer (ListWalletHistory pages, newest first), turned around. */
export function createHistoryReader(options: HistoryReaderOptions): HistoryReader {
  const { indexer } = options;
  const pageSize = options.pageSize ?? 1_000;
  const limit = options.maxTransactions ?? maxWalletTransactions;
  return {
    async history(address, chainIds) {
      const newestFirst: WalletTransaction[] = [];
      let after: TransactionCursor | undefined;
      for (;;) {
        const page = await unary(indexer, indexer.listWalletHistory, { address, chainIds: [...chainIds], after, pageSize }, { name: 'Indexer/ListWalletHistory' });
        newestFirst.push(...page.transactions);
        if (newestFirst.length > limit) throw new TooManyTransactions(limit);
        if (!page.hasMore || page.transactions.length === 0) return newestFirst.reverse();
        after = historyCursor(page.transactions.at(-1)!);
      }
    },
  };
}
