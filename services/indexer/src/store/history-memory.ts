import { createWriteBehind, type ClickHouse, type WriteBehind } from '@wallet-api/core/clickhouse';
import type { Logger } from '@wallet-api/core/logger';
import type { HistoryTables } from './history-rows.js';
import { createStoredView, type StoredView } from './stored-view.js';
import { createTransactionBodies, type TransactionBodies } from './transaction-bodies.js';

/**
 * What the indexer's writer and its readers share in one process: the bodies it keeps, and the
 * rows it has handed to ClickHouse but not stored yet. One INSERT a second into
 * `wallet_transactions` had ClickHouse 18.16 rewrite each row a hundred times and more in merges;
 * rows now wait up to `storeEveryMs` and readers take a wallet's from here meanwhile, so a
 * transaction shows as soon as it is handled. One indexer process serves its own history (the
 * chart runs one replica), so every reader of the rows sees them.
 *
 * Canonical blocks' `block_states` rows wait too: readers ask that table only which blocks are
 * orphaned, so those rows matter only where a rollback named the block as well, and there they
 * are stored at once (a revived block, a rollback older than the block's row; see the store).
 */
export interface HistoryMemory {
  bodies: TransactionBodies;
  rows: WriteBehind<HistoryTables>;
  /** How long rows may wait for their INSERT: also the balance-change writer's delay. */
  storeEveryMs: number;
  /**
   * What the tables answered, while nothing reaches them; only where rows wait (`storeEveryMs`
   * above 0), as there every write of the process's history goes through here. Writers that
   * store rows another way (a rollback's) call `storedChanged`.
   */
  stored?: StoredView;
}

export interface HistoryMemoryOptions {
  clickhouse: Pick<ClickHouse, 'insert'>;
  logger: Logger;
  /** 0: every row is stored before its write returns. */
  storeEveryMs: number;
}

export function createHistoryMemory(options: HistoryMemoryOptions): HistoryMemory {
  const stored = options.storeEveryMs > 0 ? createStoredView() : undefined;
  return {
    bodies: createTransactionBodies(),
    rows: createWriteBehind<HistoryTables>({
      clickhouse: options.clickhouse,
      logger: options.logger,
      tables: ['wallet_transactions', 'block_states'],
      keys: { wallet_transactions: (row) => row.address },
      storeEveryMs: options.storeEveryMs,
      ...(stored ? { onStored: (rows) => stored.rowsStored(rows) } : {}),
    }),
    storeEveryMs: options.storeEveryMs,
    ...(stored ? { stored } : {}),
  };
}
