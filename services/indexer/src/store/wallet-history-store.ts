import { sql, type ClickHouse } from '@wallet-api/core/clickhouse';
import { AssetKind, WalletTransaction, type BalanceChange, type ChainBlock, type ChainRollback } from '@wallet-api/core/proto/events';
import { inList, listWalletTransactionsQuery, type WalletTransactionFilter } from './wallet-transaction-query.js';

/** One wallet's reading of one transaction, as stored. */
export interface WalletTransactionRow {
  address: string;
  operationType: string;
  isTrash: boolean;
  assetTypes: readonly string[];
  tokenAddresses: readonly string[];
  counterparties: readonly string[];
}

export interface StoredWalletTransaction {
  chainId: string;
  address: string;
  blockNumber: bigint;
  blockHash: string;
  minedAt: number;
  transactionIndex: number;
  hash: string;
  operationType: string;
  isTrash: boolean;
  transaction: WalletTransaction;
}

export interface WalletHistoryStore {
  /**
   * Stores the rows of one transaction, each wallet's at most once. Returns how many were new.
   *
   * Exactly once: a transaction's identity is (chain, block hash, transaction index) and a row's is
   * that plus the wallet. Before inserting, the rows already stored for this identity are read by
   * primary key and left out, and the rest go in one INSERT, which lands in one part (all rows share
   * a block time, so one partition) and so is visible all at once or not at all. A message handled
   * again (indexer replay after a restart, consumer redelivery after a crash before the commit)
   * therefore adds nothing, and a crash during the INSERT leaves nothing half-written to skip.
   * Messages of one chain are keyed to one partition, which one consumer owns at a time; the
   * check-then-insert race of two owners during a rebalance is covered by the table's
   * ReplacingMergeTree key and the readers' LIMIT BY.
   */
  writeTransaction(transaction: WalletTransaction, rows: readonly WalletTransactionRow[]): Promise<number>;
  /** Stores a balance change once per (chain, block hash, transaction index, wallet, asset), as above. */
  writeBalanceChange(change: BalanceChange): Promise<boolean>;
  /**
   * Records a block as canonical at its sequence. Writing the same message twice adds an identical
   * row, which changes no argMax and merges away, so no check is needed.
   */
  recordBlock(block: ChainBlock): Promise<void>;
  /** Records the rollback's blocks as orphaned at its sequence; as idempotent as recordBlock. */
  recordRollback(rollback: ChainRollback): Promise<void>;
  listWalletTransactions(filter: WalletTransactionFilter): Promise<StoredWalletTransaction[]>;
}

const assetKindNames: Record<AssetKind, string> = {
  [AssetKind.ASSET_KIND_UNSPECIFIED]: 'unspecified',
  [AssetKind.ASSET_KIND_NATIVE]: 'native',
  [AssetKind.ASSET_KIND_ERC20]: 'erc20',
  [AssetKind.ASSET_KIND_ERC721]: 'erc721',
  [AssetKind.ASSET_KIND_ERC1155]: 'erc1155',
};

interface ListedRow {
  chain_id: string;
  address: string;
  block_number: string;
  block_hash: string;
  mined_at: number;
  transaction_index: number;
  hash: string;
  operation_type: string;
  is_trash: number;
  body: string;
}

export function createWalletHistoryStore(clickhouse: ClickHouse): WalletHistoryStore {
  return {
    async writeTransaction(transaction, rows) {
      if (rows.length === 0) return 0;
      const stored = await clickhouse.query<{ address: string }>(sql`SELECT address FROM wallet_transactions
        WHERE address IN ${inList(rows.map((row) => row.address))}
          AND chain_id = ${transaction.chainId}
          AND block_timestamp = toDateTime(${BigInt(transaction.blockTimestamp)})
          AND block_number = ${BigInt(transaction.blockNumber)}
          AND transaction_index = ${transaction.transactionIndex}
          AND block_hash = ${transaction.blockHash}`);
      const present = new Set(stored.map((row) => row.address));
      const fresh = rows.filter((row) => !present.has(row.address));
      if (fresh.length === 0) return 0;
      const body = Buffer.from(WalletTransaction.encode(transaction).finish()).toString('base64');
      await clickhouse.insert(
        'wallet_transactions',
        fresh.map((row) => ({
          chain_id: transaction.chainId,
          address: row.address,
          block_number: transaction.blockNumber,
          block_hash: transaction.blockHash,
          block_timestamp: Number(transaction.blockTimestamp),
          transaction_index: transaction.transactionIndex,
          hash: transaction.hash,
          operation_type: row.operationType,
          is_trash: row.isTrash ? 1 : 0,
          asset_types: row.assetTypes,
          token_addresses: row.tokenAddresses,
          counterparties: row.counterparties,
          body,
        })),
      );
      return fresh.length;
    },

    async writeBalanceChange(change) {
      const asset = change.asset ?? { kind: AssetKind.ASSET_KIND_UNSPECIFIED, address: '', tokenId: '' };
      const key = {
        address: change.wallet,
        chain_id: change.chainId,
        asset_kind: assetKindNames[asset.kind],
        asset_address: asset.address,
        token_id: asset.tokenId,
      };
      const stored = await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM balance_changes
        WHERE address = ${key.address} AND chain_id = ${key.chain_id} AND asset_kind = ${key.asset_kind}
          AND asset_address = ${key.asset_address} AND token_id = ${key.token_id}
          AND block_timestamp = toDateTime(${BigInt(change.blockTimestamp)})
          AND block_number = ${BigInt(change.blockNumber)}
          AND transaction_index = ${change.transactionIndex}
          AND block_hash = ${change.blockHash}`);
      if (Number(stored[0]?.n ?? 0) > 0) return false;
      await clickhouse.insert('balance_changes', [
        {
          ...key,
          block_number: change.blockNumber,
          block_hash: change.blockHash,
          block_timestamp: Number(change.blockTimestamp),
          transaction_hash: change.transactionHash,
          transaction_index: change.transactionIndex,
          amount: change.amount,
          amount_float: Number(change.amount),
        },
      ]);
      return true;
    },

    async recordBlock(block) {
      await clickhouse.insert('block_states', [
        { chain_id: block.chainId, block_hash: block.hash, block_number: block.number, orphaned: 0, sequence: block.sequence },
      ]);
    },

    async recordRollback(rollback) {
      await clickhouse.insert(
        'block_states',
        rollback.orphanedBlockHashes.map((hash, index) => ({
          chain_id: rollback.chainId,
          block_hash: hash,
          block_number: rollback.orphanedBlockNumbers[index] ?? '0',
          orphaned: 1,
          sequence: rollback.sequence,
        })),
      );
    },

    async listWalletTransactions(filter) {
      const rows = await clickhouse.query<ListedRow>(listWalletTransactionsQuery(filter));
      return rows.map((row) => ({
        chainId: row.chain_id,
        address: row.address,
        blockNumber: BigInt(row.block_number),
        blockHash: row.block_hash,
        minedAt: Number(row.mined_at),
        transactionIndex: Number(row.transaction_index),
        hash: row.hash,
        operationType: row.operation_type,
        isTrash: Number(row.is_trash) === 1,
        transaction: WalletTransaction.decode(Buffer.from(row.body, 'base64')),
      }));
    },
  };
}
