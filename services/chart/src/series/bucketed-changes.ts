import type { ChartWindow } from '@wallet-api/core/charts';

/** One fungible of a wallet on one chain: '' is the chain's native asset. */
export interface ChartAsset {
  chainId: string;
  asset: string;
}

export const assetKey = ({ chainId, asset }: ChartAsset): string => `${chainId}:${asset}`;

/**
 * Net changes per asset and point: bucket 0 holds everything at or before the first point, bucket
 * k the changes after point k-1 up to and including point k. A point's balance is then the sum of
 * the buckets up to its own.
 */
export interface BucketedChanges {
  add(asset: ChartAsset, bucket: number, amount: bigint): void;
  /** Each asset's balance at every point of the window (point count long), assets with no change left out. */
  balances(pointCount: number): Map<string, { asset: ChartAsset; balances: bigint[] }>;
}

/** The bucket of a change at `timestampSeconds`: the first point at or after it (0 for any time up to the first point). */
export function bucketOf(window: ChartWindow, timestampSeconds: number): number {
  if (timestampSeconds <= window.beginAt) return 0;
  return Math.ceil((timestampSeconds - window.beginAt) / window.intervalSeconds);
}

/** The window's point count: one per interval from beginAt to endAt, both included. */
export const pointCount = (window: ChartWindow): number => (window.endAt - window.beginAt) / window.intervalSeconds + 1;

export function createBucketedChanges(): BucketedChanges {
  const byAsset = new Map<string, { asset: ChartAsset; buckets: Map<number, bigint> }>();
  return {
    add(asset, bucket, amount) {
      const key = assetKey(asset);
      let entry = byAsset.get(key);
      if (!entry) byAsset.set(key, (entry = { asset, buckets: new Map() }));
      entry.buckets.set(bucket, (entry.buckets.get(bucket) ?? 0n) + amount);
    },
    balances(count) {
      const result = new Map<string, { asset: ChartAsset; balances: bigint[] }>();
      for (const [key, { asset, buckets }] of byAsset) {
        const balances: bigint[] = new Array(count);
        let running = 0n;
        for (let point = 0; point < count; point++) {
          running += buckets.get(point) ?? 0n;
          balances[point] = running;
        }
        result.set(key, { asset, balances });
      }
      return result;
    },
  };
}
