import { inList, join, orphanedBlocks, sql, type SqlFragment } from '@wallet-api/core/clickhouse';

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

/**
 * The filter's mined-time bounds in the table's whole seconds, inclusive. Mined times are whole
 * seconds, so an inclusive millisecond bound rounds inwards. Shared by the query and the filter of
 * rows waiting in memory (waiting-page.ts).
 */
export function minedSecondsBounds(filter: Pick<WalletTransactionFilter, 'minMinedAtMs' | 'maxMinedAtMs'>): { min?: bigint; max?: bigint } {
  return {
    ...(filter.minMinedAtMs === undefined ? {} : { min: clampSeconds((filter.minMinedAtMs + 999n) / 1000n) }),
    ...(filter.maxMinedAtMs === undefined ? {} : { max: clampSeconds(filter.maxMinedAtMs / 1000n) }),
  };
}

/** The cursor's mined time in the table's whole seconds. */
export const cursorSeconds = (cursor: HistoryCursor): bigint => clampSeconds(cursor.minedAtMs / 1000n);

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
  const minedAt = sql`toDateTime(${cursorSeconds(cursor)})`;
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

/** A row of listWalletTransactionsQuery's page. */
export interface ListedRow {
  chain_id: string;
  address: string;
  block_number: string;
  block_hash: string;
  mined_at: number;
  transaction_index: number;
  hash: string;
  operation_type: string;
  is_trash: number;
}

/**
 * The identities and per-wallet readings of one page of a wallet's history, from the narrow columns
 * alone: every filter, the orphan check, the keyset cursor and the order. The wide `body` is read
 * apart (transactionBodiesQuery) and only for the transactions the indexer does not keep already,
 * so a page read again after the wallet's next transaction reads one body instead of a hundred.
 * Rows not stored yet are filtered apart, in memory (waiting-page.ts).
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
  const bounds = minedSecondsBounds(filter);
  if (bounds.min !== undefined) conditions.push(sql`block_timestamp >= toDateTime(${bounds.min})`);
  if (bounds.max !== undefined) conditions.push(sql`block_timestamp <= toDateTime(${bounds.max})`);
  if (filter.assetTypes.length > 0) conditions.push(sql`hasAny(asset_types, ${filter.assetTypes})`);
  if (filter.search) conditions.push(searchCondition(filter.search));
  if (filter.after) conditions.push(afterCursor(filter.after));
  return sql`SELECT chain_id, address, block_number, block_hash, toUnixTimestamp(block_timestamp) AS mined_at,
      transaction_index, hash, operation_type, is_trash
    FROM wallet_transactions
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

/**
 * Which of these blocks are orphaned, as orphanedBlocks decides it: what the page query's orphan
 * filter does for stored rows, for rows that wait in memory.
 */
export function orphanedAmongQuery(blocks: readonly { chainId: string; blockHash: string }[]): SqlFragment {
  const chains = inList([...new Set(blocks.map((block) => block.chainId))]);
  const hashes = inList([...new Set(blocks.map((block) => block.blockHash))]);
  return sql`SELECT chain_id, block_hash FROM block_states
    WHERE chain_id IN ${chains} AND block_hash IN ${hashes}
      AND block_hash IN (SELECT block_hash FROM orphaned_block_hashes WHERE chain_id IN ${chains} AND block_hash IN ${hashes})
    GROUP BY chain_id, block_hash
    HAVING argMax(orphaned, sequence) = 1`;
}

/** A row of walletLegsQuery: what orders it among waiting rows, and the wallet's legs ('' when stored before them). */
export type LegsRow = Pick<ListedRow, 'chain_id' | 'block_number' | 'block_hash' | 'mined_at' | 'transaction_index'> & { legs: string };

/**
 * A wallet's whole history on the chains as its legs, oldest first (the page order turned
 * around), one row per transaction identity, orphaned blocks left out: one read for a replay of
 * the wallet, where pages would each scan the wallet's rows again and read whole bodies.
 */
export function walletLegsQuery(address: string, chainIds: readonly string[]): SqlFragment {
  return sql`SELECT chain_id, block_number, block_hash, toUnixTimestamp(block_timestamp) AS mined_at, transaction_index, legs
    FROM wallet_transactions
    WHERE address = ${address} AND chain_id IN ${inList(chainIds)} AND (chain_id, block_hash) NOT IN (${orphanedBlocks(chainIds)})
    ORDER BY block_timestamp, block_number, transaction_index, chain_id
    LIMIT 1 BY chain_id, block_hash, transaction_index`;
}
