import { inList, join, orphanedBlocks, sql, type SqlFragment, type SqlValue } from '@wallet-api/core/clickhouse';

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

/**
 * One page of a wallet's history in one query, read narrowly: the inner query picks the page's
 * identities from the filterable columns alone (every filter, the orphan check, the keyset cursor
 * and the order), the outer one reads the wide `body` only for those rows. PREWHERE makes
 * ClickHouse read `body` only in the granules holding them, where a single query read the body of
 * every row of the wallet that matched before sorting and cutting the page.
 */
export function listWalletTransactionsQuery(filter: WalletTransactionFilter): SqlFragment {
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
  const order = sql`ORDER BY block_timestamp DESC, block_number DESC, transaction_index DESC, chain_id DESC
    LIMIT 1 BY chain_id, block_hash, transaction_index
    LIMIT ${filter.limit}`;
  return sql`SELECT chain_id, address, block_number, block_hash, toUnixTimestamp(block_timestamp) AS mined_at,
      transaction_index, hash, operation_type, is_trash, body
    FROM wallet_transactions
    PREWHERE address = ${filter.address} AND chain_id IN ${inList(filter.chainIds)} AND (chain_id, block_hash, transaction_index) IN (
      SELECT chain_id, block_hash, transaction_index FROM wallet_transactions
      WHERE ${join(conditions, ' AND ')}
      ${order})
    ${order}`;
}
