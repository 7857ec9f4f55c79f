import { balanceKey, type BalanceEntry, type BalanceKey } from '../store/balance-store.js';

/** Where a balance's opening is read: after this block, which the indexer published. */
export interface ReadPoint {
  blockHash: string;
  blockNumber: bigint;
  /** Known when the block is an entry's; read from the chain otherwise. */
  blockTimestamp?: bigint;
}

/**
 * For each balance to open, the block of its earliest entry here that the block topics have not
 * orphaned (a block whose rollback is not known yet is read anyway: the read fails or is replaced
 * when the rollback comes). A balance whose every entry here is in an orphaned block gets
 * `{ orphaned }`, the earliest such block, to be read at the common ancestor of its rollback.
 */
export function firstReadPoints(
  entries: readonly BalanceEntry[],
  toOpen: readonly BalanceKey[],
  isOrphaned: (chainId: string, blockHash: string) => boolean,
): Map<string, ReadPoint | { orphaned: string }> {
  const wanted = new Set(toOpen.map(balanceKey));
  const earliest = new Map<string, { counted?: BalanceEntry; orphaned?: BalanceEntry }>();
  const before = (a: BalanceEntry, b: BalanceEntry | undefined) =>
    b === undefined || a.blockNumber < b.blockNumber || (a.blockNumber === b.blockNumber && a.transactionIndex < b.transactionIndex);
  for (const entry of entries) {
    const key = balanceKey(entry);
    if (!wanted.has(key)) continue;
    const seen = earliest.get(key) ?? {};
    if (isOrphaned(entry.chainId, entry.blockHash)) {
      if (before(entry, seen.orphaned)) seen.orphaned = entry;
    } else if (before(entry, seen.counted)) {
      seen.counted = entry;
    }
    earliest.set(key, seen);
  }
  const points = new Map<string, ReadPoint | { orphaned: string }>();
  for (const [key, { counted, orphaned }] of earliest) {
    if (counted) points.set(key, { blockHash: counted.blockHash, blockNumber: counted.blockNumber, blockTimestamp: counted.blockTimestamp });
    else points.set(key, { orphaned: orphaned!.blockHash });
  }
  return points;
}
