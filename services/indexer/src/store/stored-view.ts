import { LRUCache } from 'lru-cache';
import { createWalletIndexedCache } from '@wallet-api/core/cache';
import type { BlockStateRecord, WalletTransactionRecord } from './history-rows.js';
import { asListedRow, firstOfPage, matchesFilter } from './waiting-page.js';
import type { ListedRow, WalletTransactionFilter } from './wallet-transaction-query.js';

/** A block by chain and hash, as orphan states are asked about. */
export interface BlockKey {
  chainId: string;
  blockHash: string;
}

/**
 * What the indexer's tables answered, kept until something reaches them that a kept answer cannot
 * take in. With rows waiting in memory for minutes, `wallet_transactions` and `block_states`
 * change only when a round of INSERTs or a rollback's rows land, while a busy wallet's first page
 * is read again after each of its transactions: the page is then the kept stored part and the
 * waiting rows, merged in the process, and the waiting rows' orphan states known ones, instead of
 * two ClickHouse reads.
 *
 * A round of INSERTs moves rows from memory into the table without changing what any page shows,
 * so the kept pages take the round's rows in (the page query's rules applied in memory) rather
 * than being read again: a round every few minutes no longer makes every recently read wallet's
 * next page a ClickHouse read at once.
 */
export interface StoredView {
  /** The stored page of the filter: kept while nothing was stored that it could not take in since it was read, else `load`ed. */
  page(filter: WalletTransactionFilter, load: () => Promise<ListedRow[]>): Promise<ListedRow[]>;
  /** Which of `blocks` are orphaned: known ones kept likewise, the others asked with `load` (which answers the orphaned among those it is given). */
  orphaned(blocks: readonly BlockKey[], load: (unknown: readonly BlockKey[]) => Promise<readonly BlockKey[]>): Promise<Set<string>>;
  /**
   * A round of INSERTs stored these rows, which waited in memory until now: each kept page takes in
   * the transactions rows its filter passes, and the stored blocks' orphan states are asked again.
   */
  rowsStored(stored: { wallet_transactions?: readonly WalletTransactionRecord[]; block_states?: readonly BlockStateRecord[] }): void;
  /** Rows reached `wallet_transactions` or `block_states` another way (a rollback's, a revived block's): everything kept is read again. */
  storedChanged(): void;
}

export interface StoredViewOptions {
  /** Page rows kept across all pages at most; the least recently used pages go first. */
  maxPageRows?: number;
  /** Block orphan states kept at most. */
  maxBlocks?: number;
}

export const blockKey = (block: BlockKey): string => `${block.chainId}|${block.blockHash}`;

/** The page's key: the whole filter (its cursor's bigints as strings). */
const pageKey = (filter: WalletTransactionFilter): string =>
  JSON.stringify(filter, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

interface KeptPage {
  filter: WalletTransactionFilter;
  rows: ListedRow[];
}

export function createStoredView(options: StoredViewOptions = {}): StoredView {
  // Found by wallet too: a round's row reaches only its wallet's pages.
  const pages = createWalletIndexedCache<KeptPage>({
    maxSize: options.maxPageRows ?? 200_000,
    sizeOf: (page) => page.rows.length + 1,
    walletsOf: (page) => [page.filter.address],
  });
  const orphanStates = new LRUCache<string, boolean>({ max: options.maxBlocks ?? 100_000 });
  let generation = 0;

  /**
   * Keeps what a read answered only if nothing landed while it ran: it may lack what did (rows of
   * a round leave memory when the round ends, so a read from before it would miss them for good).
   */
  async function readUnder<T>(load: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const before = generation;
    const value = await load();
    if (generation === before) keep(value);
    return value;
  }

  return {
    async page(filter, load) {
      const key = pageKey(filter);
      const kept = pages.get(key);
      if (kept) return kept.rows;
      return readUnder(load, (rows) => pages.set(key, { filter, rows }));
    },

    async orphaned(blocks, load) {
      const orphaned = new Set<string>();
      const unknown: BlockKey[] = [];
      for (const block of blocks) {
        const state = orphanStates.get(blockKey(block));
        if (state === undefined) unknown.push(block);
        else if (state) orphaned.add(blockKey(block));
      }
      if (unknown.length === 0) return orphaned;
      const found = await readUnder(
        () => load(unknown),
        (answer) => {
          const named = new Set(answer.map(blockKey));
          for (const block of unknown) orphanStates.set(blockKey(block), named.has(blockKey(block)));
        },
      );
      for (const block of found) orphaned.add(blockKey(block));
      return orphaned;
    },

    rowsStored(stored) {
      generation += 1;
      const byPage = new Map<string, { page: KeptPage; added: ListedRow[] }>();
      for (const row of stored.wallet_transactions ?? []) {
        // A block a rollback named before its rows came is no page's (the page query's orphan check).
        if (orphanStates.get(blockKey({ chainId: row.chain_id, blockHash: row.block_hash }))) continue;
        for (const key of pages.keysOf(row.address)) {
          const page = pages.peek(key);
          if (!page || !matchesFilter(row, page.filter)) continue;
          const entry = byPage.get(key);
          if (entry) entry.added.push(asListedRow(row));
          else byPage.set(key, { page, added: [asListedRow(row)] });
        }
      }
      for (const [key, { page, added }] of byPage) {
        // A page that grew may have pushed another out meanwhile: that one is read again when asked.
        if (pages.peek(key) !== page) continue;
        // The page query's order, one row per transaction and the limit, over the kept rows and the new ones.
        pages.set(key, { filter: page.filter, rows: firstOfPage([...page.rows, ...added], page.filter.limit) });
      }
      // A stored canonical row may revive a block known as orphaned: its state is asked again.
      for (const block of stored.block_states ?? []) orphanStates.delete(blockKey({ chainId: block.chain_id, blockHash: block.block_hash }));
    },

    storedChanged() {
      generation += 1;
      pages.clear();
      orphanStates.clear();
    },
  };
}
