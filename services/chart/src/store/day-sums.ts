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
  /** Per asset, its days in order and the running totals through each (sealDaySums): a balance at a day is one search. */
  series: { asset: ChartAsset; days: number[]; totals: bigint[] }[];
}

export function emptyDaySums(horizon: number): DaySums {
  return { horizon, first: undefined, days: new Map(), series: [] };
}

/** Orders each asset's days and sums them up, once all changes are in. */
export function sealDaySums(sums: DaySums): DaySums {
  sums.series = [...sums.days.values()].map(({ asset, sums: byDay }) => {
    const days = [...byDay.keys()].sort((a, b) => a - b);
    let running = 0n;
    const totals = days.map((day) => (running += byDay.get(day)!));
    return { asset, days, totals };
  });
  return sums;
}

/** The index of the last of `days` at or before `day`; -1 when there is none. */
export function lastDayAtOrBefore(days: readonly number[], day: number): number {
  let low = 0;
  let high = days.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (days[middle]! <= day) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

export function addToDay(sums: DaySums, asset: ChartAsset, day: number, amount: bigint, timestamp: number): void {
  const key = assetKey(asset);
  let entry = sums.days.get(key);
  if (!entry) sums.days.set(key, (entry = { asset, sums: new Map() }));
  entry.sums.set(day, (entry.sums.get(day) ?? 0n) + amount);
  if (sums.first === undefined || timestamp < sums.first) sums.first = timestamp;
}
