import type { WalletTransactionRecord } from './history-rows.js';
import { cursorSeconds, minedSecondsBounds, type ListedRow, type TransactionSearch, type WalletTransactionFilter } from './wallet-transaction-query.js';

/*
 * Rows that wait in memory for their INSERT (HistoryMemory) take part in a wallet's page by the
 * rules of listWalletTransactionsQuery, applied here instead of in ClickHouse: as literal rows in
 * the page query, ClickHouse 18.16 spent about 0.6 ms analysing each (a busy wallet's 300 waiting
 * rows made a 10 ms read take 190 ms).
 */

function matchesSearch(row: WalletTransactionRecord, search: TransactionSearch): boolean {
  switch (search.kind) {
    case 'hash':
      return row.hash === search.hash;
    case 'address':
      return row.counterparties.includes(search.address) || row.token_addresses.includes(search.address);
    case 'tokens':
      return search.tokens.some((token) => token.chainId === row.chain_id && row.token_addresses.includes(token.address));
  }
}

/** What a row is ordered by, as listWalletTransactionsQuery orders: mined time, block number, index, chain. */
type Ordered = Pick<ListedRow, 'mined_at' | 'block_number' | 'transaction_index' | 'chain_id'>;

const orderKey = (row: Ordered) => [BigInt(row.mined_at), BigInt(row.block_number), BigInt(row.transaction_index), row.chain_id] as const;

/** Negative when `a` comes first in the page: newest first, as the query orders. */
export function newestFirst(a: Ordered, b: Ordered): number {
  const left = orderKey(a);
  const right = orderKey(b);
  for (let index = 0; index < left.length; index += 1) {
    if (left[index]! !== right[index]!) return left[index]! > right[index]! ? -1 : 1;
  }
  return 0;
}

export const asListedRow = (row: WalletTransactionRecord): ListedRow => ({
  chain_id: row.chain_id,
  address: row.address,
  block_number: row.block_number,
  block_hash: row.block_hash,
  mined_at: row.block_timestamp,
  transaction_index: row.transaction_index,
  hash: row.hash,
  operation_type: row.operation_type,
  is_trash: row.is_trash,
});

/** Whether the row passes every condition of the page query but the orphan check, which needs block_states. */
export function matchesFilter(row: WalletTransactionRecord, filter: WalletTransactionFilter): boolean {
  if (row.address !== filter.address || !filter.chainIds.includes(row.chain_id)) return false;
  if (filter.operationTypes.length > 0 && !filter.operationTypes.includes(row.operation_type)) return false;
  if (filter.trash === 'only_trash' && row.is_trash !== 1) return false;
  if (filter.trash === 'only_non_trash' && row.is_trash !== 0) return false;
  const bounds = minedSecondsBounds(filter);
  const minedAt = BigInt(row.block_timestamp);
  if (bounds.min !== undefined && minedAt < bounds.min) return false;
  if (bounds.max !== undefined && minedAt > bounds.max) return false;
  if (filter.assetTypes.length > 0 && !row.asset_types.some((type) => filter.assetTypes.includes(type))) return false;
  if (filter.search && !matchesSearch(row, filter.search)) return false;
  if (filter.after) {
    const { after } = filter;
    const cursor = {
      mined_at: Number(cursorSeconds(after)),
      block_number: after.blockNumber.toString(),
      transaction_index: after.transactionIndex,
      chain_id: after.chainId,
    };
    if (newestFirst(asListedRow(row), cursor) <= 0) return false;
  }
  return true;
}

const identity = (row: ListedRow) => `${row.chain_id}|${row.block_hash}|${row.transaction_index}`;

/**
 * The rows in the page query's order, one per transaction identity (its LIMIT 1 BY), at most
 * `limit`: the stored page and the waiting rows merged, or the waiting rows alone.
 */
export function firstOfPage(rows: readonly ListedRow[], limit: number): ListedRow[] {
  const seen = new Set<string>();
  const page: ListedRow[] = [];
  for (const row of [...rows].sort(newestFirst)) {
    if (page.length === limit) break;
    const key = identity(row);
    if (seen.has(key)) continue;
    seen.add(key);
    page.push(row);
  }
  return page;
}
