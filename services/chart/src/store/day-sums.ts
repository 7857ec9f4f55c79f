import { assetKey, type ChartAsset } from '../series/bucketed-changes.js';

export const daySeconds = 86_400;

/** The day a change at `timestampSeconds` counts in: day k holds the times after (k-1) days and up to k days, so a point at k days includes it. */
export const dayOf = (timestampSeconds: number): number => Math.ceil(timestampSeconds / daySeconds);

/**
 * A wallet's (or wallet set's) net changes per asset and day up to a horizon (a day boundary),
 * every change counted once and orphaned blocks left out: the part of every chart that no new
 * block changes, read once instead of per request.
 */
export interface DaySums {
  /** Changes at or before this time (unix seconds, a day boundary) are all here. */
  horizon: number;
  /** The time of the first change, undefined when there is none up to the horizon. */
  first: number | undefined;
  days: Map<string, { asset: ChartAsset; sums: Map<number, bigint> }>;
}

export function emptyDaySums(horizon: number): DaySums {
  return { horizon, first: undefined, days: new Map() };
}

export function addToDay(sums: DaySums, asset: ChartAsset, day: number, amount: bigint, timestamp: number): void {
  const key = assetKey(asset);
  let entry = sums.days.get(key);
  if (!entry) sums.days.set(key, (entry = { asset, sums: new Map() }));
  entry.sums.set(day, (entry.sums.get(day) ?? 0n) + amount);
  if (sums.first === undefined || timestamp < sums.first) sums.first = timestamp;
}
