import type { WalletTransaction } from '../generated/proto/events.js';
import type { TransactionCursor } from '../generated/proto/indexer.js';

/** Where the page after this transaction starts in the indexer's listings (newest first). */
export function historyCursor(transaction: WalletTransaction): TransactionCursor {
  return {
    minedAtMs: String(BigInt(transaction.blockTimestamp) * 1000n),
    blockNumber: transaction.blockNumber,
    transactionIndex: transaction.transactionIndex,
    chainId: transaction.chainId,
  };
}
