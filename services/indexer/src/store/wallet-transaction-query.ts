import { inList, join, orphanedBlocks, sql, type SqlFragment, type SqlValue } from '@wallet-api/core/clickhouse';
import type { WalletTransactionRecord } from './history-memory.js';

// Moved to core for reference-data's price tables; kept importable from here for the indexer's callers.
export { inList, orphanedBlocks };

export type TrashFilter = 'only_trash' | 'only_non_trash' | 'no_filter';

/** Position of a transaction in a wallet's history, newest first; a page starts strictly after it. */
export interface HistoryCursor {
  minedAtMs: bigint;
  blockNumber: bigint;
  transactionIndex: number;
  chainId: string;
}

export type TransactionSearch =
  | { kind: 'hash'; hash: string }
  | { kind: 'address'; address: string }
  /** Token contracts found for a symbol; '' is a chain's native asset. */
  | { kind: 'tokens'; tokens: readonly { chainId: string; address: string }[] };

export interface WalletTransactionFilter {
  address: string;
  /** At least one. */
  chainIds: readonly string[];
  operationTypes: readonly string[];
  trash: TrashFilter;
  minMinedAtMs?: bigint;
  maxMinedAtMs?: bigint;
  assetTypes: readonly string[];
  search?: TransactionSearch;
  after?: HistoryCursor;
  limit: number;
}

const maxDateTime = 4_294_967_295n;
const clampSeconds = (seconds: bigint) => (seconds < 0n ? 0n : seconds > maxDateTime ? maxDateTime : seconds);

function searchCondition(search: TransactionSearch): SqlFragment {
  switch (search.kind) {
    case 'hash':
      return sql`hash = ${search.hash}`;
    case 'address':
      return sql`(has(counterparties, ${search.address}) OR has(token_addresses, ${search.address}))`;
    case 'tokens': {
      const byChain = new Map<string, string[]>();
      for (const token of search.tokens) byChain.set(token.chainId, [...(byChain.get(token.chainId) ?? []), token.address]);
      if (byChain.size === 0) return sql`0`;
      const perChain = [...byChain].map(([chainId, addresses]) => sql`(chain_id = ${chainId} AND hasAny(token_addresses, ${addresses}))`);
      return sql`(${join(perChain, ' OR ')})`;
    }
  }
}

/** Strictly older than the cursor in the order (mined time, block number, index, chain) descending. */
function afterCursor(cursor: HistoryCursor): SqlFragment {
  const minedAt = sql`toDateTime(${clampSeconds(cursor.minedAtMs / 1000n)})`;
  return sql`(block_timestamp < ${minedAt} OR (block_timestamp = ${minedAt} AND (block_number < ${cursor.blockNumber}
    OR (block_number = ${cursor.blockNumber} AND (transaction_index < ${cursor.transactionIndex}
    OR (transaction_index = ${cursor.transactionIndex} AND chain_id < ${cursor.chainId}))))))`;
}

/** A transaction's identity: the key its body is stored and kept under, whichever wallet's row it came from. */
export interface TransactionIdentity {
  chainId: string;
  blockHash: string;
  transactionIndex: number;
}

const narrowColumns = sql`chain_id, address, block_number, block_hash, block_timestamp, transaction_index, hash, operation_type, is_trash,
  asset_types, token_addresses, counterparties`;

/** A row not stored yet, as a SELECT of literals typed like the table's columns (18.16's UNION ALL wants equal types). */
function recordSelect(row: WalletTransactionRecord): SqlFragment {
  const strings = (values: readonly string[]) => sql`CAST(${values} AS Array(String))`;
  return sql`SELECT ${row.chain_id}, ${row.address}, toUInt64(${BigInt(row.block_number)}), ${row.block_hash}, toDateTime(${row.block_timestamp}),
    toUInt32(${row.transaction_index}), ${row.hash}, ${row.operation_type}, toUInt8(${row.is_trash}),
    ${strings(row.asset_types)}, ${strings(row.token_addresses)}, ${strings(row.counterparties)}`;
}

/**
 * The wallet's rows: the table's, plus those that wait for their INSERT in the indexer's memory
 * (HistoryMemory) as literal rows, so every filter below applies to both alike.
 */
function walletRowsSource(filter: WalletTransactionFilter, waiting: readonly WalletTransactionRecord[]): SqlFragment {
  if (waiting.length === 0) return sql`wallet_transactions`;
  const stored = sql`SELECT ${narrowColumns} FROM wallet_transactions WHERE address = ${filter.address} AND chain_id IN ${inList(filter.chainIds)}`;
  return sql`(${join([stored, ...waiting.map(recordSelect)], ' UNION ALL ')})`;
}

/**
 * The identities and per-wallet readings of one page of a wallet's history, from the narrow columns
 * alone: every filter, the orphan check, the keyset cursor and the order. The wide `body` is read
 * apart (transactionBodiesQuery) and only for the transactions the indexer does not keep already,
 * so a page read again after the wallet's next transaction reads one body instead of a hundred.
 * `waiting`: the wallet's rows not stored yet.
 */
export function listWalletTransactionsQuery(filter: WalletTransactionFilter, waiting: readonly WalletTransactionRecord[] = []): SqlFragment {
  const conditions: SqlFragment[] = [
    sql`address = ${filter.address}`,
    sql`chain_id IN ${inList(filter.chainIds)}`,
    sql`(chain_id, block_hash) NOT IN (${orphanedBlocks(filter.chainIds)})`,
  ];
  if (filter.operationTypes.length > 0) conditions.push(sql`operation_type IN ${inList(filter.operationTypes)}`);
  if (filter.trash === 'only_trash') conditions.push(sql`is_trash = 1`);
  if (filter.trash === 'only_non_trash') conditions.push(sql`is_trash = 0`);
  // Mined times are whole seconds, so an inclusive millisecond bound rounds inwards.
  if (filter.minMinedAtMs !== undefined) {
    conditions.push(sql`block_timestamp >= toDateTime(${clampSeconds((filter.minMinedAtMs + 999n) / 1000n)})`);
  }
  if (filter.maxMinedAtMs !== undefined) {
    conditions.push(sql`block_timestamp <= toDateTime(${clampSeconds(filter.maxMinedAtMs / 1000n)})`);
  }
  if (filter.assetTypes.length > 0) conditions.push(sql`hasAny(asset_types, ${filter.assetTypes})`);
  if (filter.search) conditions.push(searchCondition(filter.search));
  if (filter.after) conditions.push(afterCursor(filter.after));
  return sql`SELECT chain_id, address, block_number, block_hash, toUnixTimestamp(block_timestamp) AS mined_at,
      transaction_index, hash, operation_type, is_trash
    FROM ${walletRowsSource(filter, waiting)}
    WHERE ${join(conditions, ' AND ')}
    ORDER BY block_timestamp DESC, block_number DESC, transaction_index DESC, chain_id DESC
    LIMIT 1 BY chain_id, block_hash, transaction_index
    LIMIT ${filter.limit}`;
}

/**
 * The stored bodies of some of a wallet's transactions, one per identity. PREWHERE on the wallet
 * and the identities makes ClickHouse read `body` only in the granules holding them.
 */
export function transactionBodiesQuery(address: string, identities: readonly TransactionIdentity[]): SqlFragment {
  const chainIds = [...new Set(identities.map((identity) => identity.chainId))];
  const tuples = identities.map((identity) => sql`(${identity.chainId}, ${identity.blockHash}, ${identity.transactionIndex})`);
  return sql`SELECT chain_id, block_hash, transaction_index, any(body) AS body
    FROM wallet_transactions
    PREWHERE address = ${address} AND chain_id IN ${inList(chainIds)} AND (chain_id, block_hash, transaction_index) IN (${join(tuples, ', ')})
    GROUP BY chain_id, block_hash, transaction_index`;
}
