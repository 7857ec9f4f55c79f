import { createWalletIndexedCache, epochScoped, remembered } from '@wallet-api/core/cache';
import { rowAmount, rowIdentity, type BalanceChangeRow } from './balance-change-rows.js';

export interface RecentScope {
  addresses: readonly string[];
  chainIds: readonly string[];
}

/** One change of one wallet's asset in one transaction, as a chart sums it. */
export interface RecentChange {
  chainId: string;
  asset: string;
  blockHash: string;
  /** Unix seconds. */
  timestamp: number;
  amount: bigint;
}

export interface RecentChanges {
  /** The scope's changes after `after` (unix seconds), each once, those of blocks orphaned under the current `everything` token left out. */
  changes(scope: RecentScope, after: number): Promise<RecentChange[]>;
  /** Rows handed to the store: every kept scope of their wallets takes them in. */
  added(rows: readonly BalanceChangeRow[]): void;
}

export interface RecentChangesOptions {
  /** The scope's changes after `after` as the store has them (stored and waiting), any copy of a change any number of times. */
  read(scope: RecentScope, after: number): Promise<BalanceChangeRow[]>;
  /** The orphaned blocks of these chains, as `chain:hash`. */
  orphaned(chainIds: readonly string[]): Promise<Set<string>>;
  /** The change token of rollbacks and revived blocks: what was kept under another one is read again. */
  everything(): Promise<string>;
  /** Changes kept at most, across all scopes; the least recently used scopes go first. */
  maxChanges: number;
}

interface Entry {
  everything: string;
  scope: RecentScope;
  after: number;
  /** By the change's identity: a copy delivered again replaces itself, so nothing counts twice. */
  changes: Map<string, RecentChange>;
  /** Rows added while the read runs, taken in once it is done. */
  pending: BalanceChangeRow[] | undefined;
  ready: Promise<void>;
}

const toChange = (row: BalanceChangeRow): RecentChange => ({
  chainId: row.chain_id,
  asset: row.asset,
  blockHash: row.block_hash,
  timestamp: row.block_timestamp,
  amount: rowAmount(row),
});

/**
 * A scope's changes since the start of a day, read from the store once and kept: a chart's points
 * after its summarised days are summed from memory. The chart service is the only writer of these
 * rows and hands every one to `added` as it hands it to the store, so a kept scope follows its
 * wallets' new changes without reading again; a window that moves on to its next point reads
 * nothing either. Changes are kept by identity, so a message Kafka delivers again, or a row both
 * waiting and stored, counts once. A rollback or a revived block replaces `everything`, and the
 * scope is read again under the new token.
 */
export function createRecentChanges(options: RecentChangesOptions): RecentChanges {
  const entries = createWalletIndexedCache<Entry>({
    maxSize: options.maxChanges,
    sizeOf: (entry) => entry.changes.size + 1,
    walletsOf: (entry) => entry.scope.addresses,
  });
  /** Orphaned blocks per chain selection, read once under the current `everything` token. */
  const orphanedUnder = epochScoped(() => new Map<string, Promise<Set<string>>>());

  function orphanedBlocks(everything: string, chainIds: readonly string[]): Promise<Set<string>> {
    return remembered(orphanedUnder(everything), [...chainIds].sort().join(','), () => options.orphaned(chainIds));
  }

  function takeIn(entry: Entry, row: BalanceChangeRow): void {
    if (row.block_timestamp <= entry.after || !entry.scope.chainIds.includes(row.chain_id)) return;
    entry.changes.set(rowIdentity(row), toChange(row));
  }

  function read(key: string, everything: string, scope: RecentScope, after: number): Entry {
    const entry: Entry = { everything, scope, after, changes: new Map(), pending: [], ready: Promise.resolve() };
    entry.ready = options.read(scope, after).then((rows) => {
      for (const row of rows) takeIn(entry, row);
      for (const row of entry.pending ?? []) takeIn(entry, row);
      entry.pending = undefined;
      entries.resized(key, entry);
    });
    entries.set(key, entry);
    // A failed read is not kept.
    entry.ready.catch(() => {
      if (entries.peek(key) === entry) entries.delete(key);
    });
    return entry;
  }

  return {
    async changes(scope, after) {
      const everything = await options.everything();
      const key = `${[...scope.addresses].sort().join(',')}|${[...scope.chainIds].sort().join(',')}|${after}`;
      const kept = entries.get(key);
      const entry = kept?.everything === everything ? kept : read(key, everything, scope, after);
      const [orphaned] = await Promise.all([orphanedBlocks(everything, scope.chainIds), entry.ready]);
      const changes: RecentChange[] = [];
      for (const change of entry.changes.values()) if (!orphaned.has(`${change.chainId}:${change.blockHash}`)) changes.push(change);
      return changes;
    },

    added(rows) {
      const grown = new Set<string>();
      for (const row of rows) {
        for (const key of entries.keysOf(row.address)) {
          const entry = entries.peek(key);
          if (!entry) continue;
          if (entry.pending) entry.pending.push(row);
          else {
            takeIn(entry, row);
            grown.add(key);
          }
        }
      }
      // Counted again, so that the budget holds what they hold now.
      for (const key of grown) {
        const entry = entries.peek(key);
        if (entry) entries.resized(key, entry);
      }
    },
  };
}
