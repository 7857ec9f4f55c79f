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

/** What a point price is kept by, less its time: one fungible (or implementation) in one currency and network. */
export type PriceSeriesKey = Omit<PriceLookupKey, 'timestamp'>;

export interface PointPriceCache {
  /**
   * Brings the cache up to the price moves and rollbacks announced since it last looked, and
   * returns the tokens it is now at: answers asked under them may be kept with `keep`.
   */
  refresh(): Promise<CacheBaseline>;
  get(key: PriceLookupKey): PointPrice | null;
  /**
   * The kept prices of one series by time (null: not kept), looked up without building a key per
   * time: a day chart asks 288 times per fungible. Use it before the next `refresh` or `keep`: it
   * reads the series as kept when it was made.
   */
  series(key: PriceSeriesKey): (timestamp: number) => PointPrice | null;
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

const seriesKeyOf = (key: PriceSeriesKey) => `${key.currency}|${key.network}|${key.chainId}|${key.asset}`;

/**
 * Prices at past points, kept across requests: a chart asks each point's price once instead of
 * at every computation. A price move announces the earliest time it touched (PriceMove), so only
 * the kept prices from then on are dropped; a rollback, or moves the log no longer holds, drop
 * them all.
 */
export function createPointPriceCache(options: PointPriceCacheOptions): PointPriceCache {
  const now = options.now ?? Date.now;
  let baseline: CacheBaseline | undefined;
  /** Per series, its kept prices by time. */
  const kept = new Map<string, Map<number, PointPrice>>();
  /** The series with a price kept at each time, to drop every price from a time on. */
  const byTime = new Map<number, Map<number, PointPrice>[]>();
  let size = 0;

  function clear(): void {
    kept.clear();
    byTime.clear();
    size = 0;
  }

  function dropFrom(since: number): void {
    for (const [time, series] of byTime) {
      if (time < since) continue;
      for (const prices of series) if (prices.delete(time)) size--;
      byTime.delete(time);
    }
  }

  const noPrices: ReadonlyMap<number, PointPrice> = new Map();
  const priceIn = (prices: ReadonlyMap<number, PointPrice>, timestamp: number): PointPrice | null => (prices.has(timestamp) ? prices.get(timestamp) : null);

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
      return priceIn(kept.get(seriesKeyOf(key)) ?? noPrices, key.timestamp);
    },
    series(key) {
      const prices = kept.get(seriesKeyOf(key)) ?? noPrices;
      return (timestamp) => priceIn(prices, timestamp);
    },
    keep(under, answers) {
      if (!baseline || baseline.everything !== under.everything || baseline.prices !== under.prices) return;
      const settled = Math.floor(now() / 1000) - options.settleSeconds;
      for (const { key, price } of answers) {
        if (key.timestamp > settled) continue;
        if (size >= options.maxEntries) clear();
        const id = seriesKeyOf(key);
        let prices = kept.get(id);
        if (!prices) kept.set(id, (prices = new Map()));
        if (!prices.has(key.timestamp)) {
          size++;
          const series = byTime.get(key.timestamp);
          if (series) series.push(prices);
          else byTime.set(key.timestamp, [prices]);
        }
        prices.set(key.timestamp, price);
      }
    },
  };
}
