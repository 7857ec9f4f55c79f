/** A block seen by a gas tracker. */
export interface BlockPoint {
  number: bigint;
  /** Unix seconds. */
  timestamp: bigint;
}

/** Block time served when fewer than two blocks are known (a chain at genesis). */
export const defaultBlockSeconds = 12;
/**
 * Bounds of the estimate: chains idle for days between blocks (a devnet's generated history) would
 * otherwise promise inclusion in days, when a transaction sent now is mined at the next block.
 */
export const minBlockSeconds = 1;
export const maxBlockSeconds = 120;

/**
 * The chain's block time in seconds: the median over consecutive known points of the seconds per
 * block between them (robust to one long pause), clamped to [minBlockSeconds, maxBlockSeconds].
 * `points` ascend by number.
 */
export function blockSeconds(points: readonly BlockPoint[]): number {
  const spans: number[] = [];
  for (let index = 1; index < points.length; index++) {
    const blocks = points[index]!.number - points[index - 1]!.number;
    if (blocks > 0n) spans.push(Number(points[index]!.timestamp - points[index - 1]!.timestamp) / Number(blocks));
  }
  if (spans.length === 0) return defaultBlockSeconds;
  spans.sort((a, b) => a - b);
  const middle = spans[Math.floor((spans.length - 1) / 2)]!;
  return Math.min(maxBlockSeconds, Math.max(minBlockSeconds, middle));
}
