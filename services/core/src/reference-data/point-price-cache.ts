import type { ChangeVersions } from '../cache/change-versions.js';

/** A price as reference-data answered it: undefined when the token had none then. */
export type PointPrice = number | undefined;

export interface PriceLookupKey {
  currency: string;
  network: number;
  chainId: string;
  asset: string;
  timestamp: number;
}

export interface PointPriceCache {
  /**
   * Brings the cache up to the price moves and rollbacks announced since it last looked, and
   * returns the tokens it is now at: answers asked under them may be kept with `keep`.
   */
  refresh(): Promise<CacheBaseline>;
  get(key: PriceLookupKey): PointPrice | null;
  /** Keeps answers read after `refresh` returned `baseline`, unless the cache moved on meanwhile. */
  keep(baseline: CacheBaseline, answers: readonly { key: PriceLookupKey; price: PointPrice }[]): void;
}

export interface CacheBaseline {
  everything: string;
  prices: string;
}

export interface PointPriceCacheOptions {
  versions: Pick<ChangeVersions, 'everythingAndPrices' | 'pricesMovedSince'>;
  /** Prices of times at least this old are kept: later blocks and vault reads settle the newer ones. */
  settleSeconds: number;
  maxEntries: number;
  now?: () => number;
}

const keyOf = (key: PriceLookupKey) => `${key.currency}|${key.network}|${key.chainId}|${key.asset}|${key.timestamp}`;

/**
 * Prices at past points, kept across requests: a chart asks each point's price once instead of
 * at every computation. A price move announces the earliest time it touched (PriceMove), so only
 * the kept prices from then on are dropped; a rollback, or moves the log no longer holds, drop
 * them all.
 */
export function createPointPriceCache(options: PointPriceCacheOptions): PointPriceCache {
  const now = options.now ?? Date.now;
  let baseline: CacheBaseline | undefined;
  const prices = new Map<string, PointPrice>();
  /** The kept keys by time, to drop every price from a time on. */
  const byTime = new Map<number, string[]>();

  function clear(): void {
    prices.clear();
    byTime.clear();
  }

  function dropFrom(since: number): void {
    for (const [time, keys] of byTime) {
      if (time < since) continue;
      for (const key of keys) prices.delete(key);
      byTime.delete(time);
    }
  }

  return {
    async refresh() {
      const current = await options.versions.everythingAndPrices();
      if (!baseline || baseline.everything !== current.everything) clear();
      else if (baseline.prices !== current.prices) {
        const since = await options.versions.pricesMovedSince(baseline.prices);
        if (since === undefined) clear();
        else dropFrom(since);
      }
      baseline = current;
      return current;
    },
    get(key) {
      const id = keyOf(key);
      return prices.has(id) ? prices.get(id) : null;
    },
    keep(under, answers) {
      if (!baseline || baseline.everything !== under.everything || baseline.prices !== under.prices) return;
      const settled = Math.floor(now() / 1000) - options.settleSeconds;
      for (const { key, price } of answers) {
        if (key.timestamp > settled) continue;
        if (prices.size >= options.maxEntries) clear();
        const id = keyOf(key);
        if (!prices.has(id)) {
          const keys = byTime.get(key.timestamp);
          if (keys) keys.push(id);
          else byTime.set(key.timestamp, [id]);
        }
        prices.set(id, price);
      }
    },
  };
}
