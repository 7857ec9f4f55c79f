import { createWriteBehind, type ClickHouse, type WriteBehind } from '@wallet-api/core/clickhouse';
import type { Logger } from '@wallet-api/core/logger';
import { createTransactionBodies, type TransactionBodies } from './transaction-bodies.js';

/** A `wallet_transactions` row as inserted. */
export type WalletTransactionRecord = {
  chain_id: string;
  address: string;
  block_number: string;
  block_hash: string;
  block_timestamp: number;
  transaction_index: number;
  hash: string;
  operation_type: string;
  is_trash: number;
  asset_types: readonly string[];
  token_addresses: readonly string[];
  counterparties: readonly string[];
  body: string;
};

/** A `block_states` row as inserted. */
export type BlockStateRecord = {
  chain_id: string;
  block_hash: string;
  block_number: string;
  orphaned: number;
  sequence: string;
};

/**
 * What the indexer's writer and its readers share in one process: the bodies it keeps, and the
 * rows it has handed to ClickHouse but not stored yet. One INSERT a second into
 * `wallet_transactions` had ClickHouse 18.16 rewrite each row a hundred times and more in merges;
 * rows now wait up to `storeEveryMs` and readers take them from here meanwhile, so a transaction
 * shows as soon as it is handled. One indexer process serves its own history (the chart runs one
 * replica), so every reader of the rows sees them.
 */
export interface HistoryMemory {
  bodies: TransactionBodies;
  transactions: WriteBehind<WalletTransactionRecord>;
  /**
   * Canonical blocks' rows. Readers ask `block_states` only which blocks are orphaned, so these
   * matter only where a rollback named the block too: a block that a rollback orphaned before
   * (revived) and a rollback that comes after the block (stale) have them stored first.
   */
  blocks: WriteBehind<BlockStateRecord>;
  /** How long rows may wait for their INSERT: also the balance-change writer's delay. */
  storeEveryMs: number;
  /** Stores what waits; later rows are stored as they come. */
  close(): Promise<void>;
}

export interface HistoryMemoryOptions {
  clickhouse: Pick<ClickHouse, 'insert'>;
  logger: Logger;
  /** 0: every row is stored before its write returns. */
  storeEveryMs: number;
}

export function createHistoryMemory(options: HistoryMemoryOptions): HistoryMemory {
  const transactions = createWriteBehind<WalletTransactionRecord>({
    clickhouse: options.clickhouse,
    table: 'wallet_transactions',
    logger: options.logger,
    storeEveryMs: options.storeEveryMs,
    keyOf: (row) => row.address,
  });
  const blocks = createWriteBehind<BlockStateRecord>({
    clickhouse: options.clickhouse,
    table: 'block_states',
    logger: options.logger,
    storeEveryMs: options.storeEveryMs,
    keyOf: (row) => row.chain_id,
  });
  return {
    bodies: createTransactionBodies(),
    transactions,
    blocks,
    storeEveryMs: options.storeEveryMs,
    async close() {
      await Promise.all([transactions.close(), blocks.close()]);
    },
  };
}
