import type { TransactionRecord } from '@wallet-api/core/proto/indexer';

/** Whose snapshot is asked: the organization's view of one wallet on some chains. */
export interface SnapshotQuery {
  organizationId: string;
  /** Normalized as the indexer stores it: lowercase 0x-hex for EVM, base58 as given for Solana. */
  address: string;
  chainIds: readonly string[];
}

/**
 * Transactions of a wallet that are not in its indexed history (spec 4.5's `meta.pending` and
 * `meta.unsigned`): records with block_number 0, mined_at = first seen or created, and the
 * action id. ListWalletTransactions applies the request's filters to them; a source only scopes
 * them to the query.
 */
export interface SnapshotSource {
  list(query: SnapshotQuery): Promise<TransactionRecord[]>;
}
