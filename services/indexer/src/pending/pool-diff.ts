/** A transaction in a chain's pending pool and when the indexer first saw it there. */
export interface PoolEntry<T> {
  hash: string;
  firstSeenMs: number;
  /** Undefined until decoded (a failed simulation is tried again at the next poll). */
  decoded: T | undefined;
}

export interface PoolDiff {
  /** In the pool now and not before: to be decoded, first seen now. */
  added: string[];
  /** Known before and no longer in the pool: mined or dropped. */
  removed: string[];
}

/** How the pool changed between the snapshot's hashes and the hashes the node lists now. */
export function diffPool(known: ReadonlyMap<string, unknown>, current: readonly string[]): PoolDiff {
  const now = new Set(current);
  return {
    added: [...now].filter((hash) => !known.has(hash)),
    removed: [...known.keys()].filter((hash) => !now.has(hash)),
  };
}

/**
 * The snapshot after a poll: the removed go, the added enter first seen at `nowMs`, and the ones
 * still pending keep their first-seen time and decoding.
 */
export function applyPoolDiff<T>(known: ReadonlyMap<string, PoolEntry<T>>, diff: PoolDiff, nowMs: number): Map<string, PoolEntry<T>> {
  const next = new Map(known);
  for (const hash of diff.removed) next.delete(hash);
  for (const hash of diff.added) next.set(hash, { hash, firstSeenMs: nowMs, decoded: undefined });
  return next;
}
