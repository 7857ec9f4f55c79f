import { LRUCache } from 'lru-cache';
import type { ListedRow } from './wallet-transaction-query.js';

/** A block by chain and hash, as orphan states are asked about. */
export interface BlockKey {
  chainId: string;
  blockHash: string;
}

/**
 * What the indexer's tables answered, kept until something reaches them. With rows waiting in
 * memory for minutes, `wallet_transactions` and `block_states` change only when a round of
 * INSERTs or a rollback's rows land, while a busy wallet's first page is read again after each of
 * its transactions: the page is then the kept stored part and the waiting rows, merged in the
 * process, and the waiting rows' orphan states known ones, instead of two ClickHouse reads.
 */
export interface StoredView {
  /** The stored page under `key` (the whole filter): kept while nothing was stored since it was read, else `load`ed. */
  page(key: string, load: () => Promise<ListedRow[]>): Promise<ListedRow[]>;
  /** Which of `blocks` are orphaned: known ones kept likewise, the others asked with `load` (which answers the orphaned among those it is given). */
  orphaned(blocks: readonly BlockKey[], load: (unknown: readonly BlockKey[]) => Promise<readonly BlockKey[]>): Promise<Set<string>>;
  /** Rows reached `wallet_transactions` or `block_states`: everything kept is read again. */
  storedChanged(): void;
}

export interface StoredViewOptions {
  /** Page rows kept across all pages at most; the least recently used pages go first. */
  maxPageRows?: number;
  /** Block orphan states kept at most. */
  maxBlocks?: number;
}

export const blockKey = (block: BlockKey): string => `${block.chainId}|${block.blockHash}`;

export function createStoredView(options: StoredViewOptions = {}): StoredView {
  const pages = new LRUCache<string, ListedRow[]>({ maxSize: options.maxPageRows ?? 200_000, sizeCalculation: (rows) => rows.length + 1 });
  const orphanStates = new LRUCache<string, boolean>({ max: options.maxBlocks ?? 100_000 });
  let generation = 0;

  /** Keeps what a read answered only if nothing landed while it ran: it may lack what did. */
  async function readUnder<T>(load: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const before = generation;
    const value = await load();
    if (generation === before) keep(value);
    return value;
  }

  return {
    async page(key, load) {
      return pages.get(key) ?? readUnder(load, (rows) => pages.set(key, rows));
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
    storedChanged() {
      generation += 1;
      pages.clear();
      orphanStates.clear();
    },
  };
}
