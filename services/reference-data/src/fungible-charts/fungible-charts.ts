import type { ChangeVersions, SharedChangeTokens } from '@wallet-api/core/cache';
import { chartWindow, type ChartPeriod, type ChartWindow } from '@wallet-api/core/charts';
import { LRUCache } from 'lru-cache';
import type { Currency } from '../prices/currencies.js';
import type { PriceOracle } from '../prices/price-oracle.js';
import type { Registry } from '../registry/registry.js';
import type { FirstPriceStore } from '../store/first-price-store.js';
import type { ChartedFungible } from './charted-fungible.js';
import { pointTimes, pricedPoints, type PricePoint } from './price-points.js';

export interface FungibleChartRequest {
  fungible: ChartedFungible;
  currency: Currency;
  period: ChartPeriod;
  /** `mainnet` or `testnet`: charts of the same fungible id on two networks are kept apart. */
  network: string;
}

export interface FungibleChart {
  fungibleId: string;
  window: ChartWindow;
  /** The window's points that have a price, oldest first. */
  points: PricePoint[];
}

export interface FungibleCharts {
  chart(request: FungibleChartRequest): Promise<FungibleChart>;
}

export interface FungibleChartsOptions {
  oracle: Pick<PriceOracle, 'prices'>;
  registry: Pick<Registry, 'pricing'>;
  firstPrices: FirstPriceStore;
  /** The price consumer replaces `prices` after every stored batch and `everything` after every rollback. */
  versions: Pick<ChangeVersions, 'everythingAndPrices' | 'pricesMovedSince'>;
  /** Charts kept (one per fungible, network, currency and period); the least recently asked go first. */
  maxCharts?: number;
  /**
   * Prices of points at least this old are carried over a price move that did not reach back to
   * them; newer ones are asked again (an LP or vault price reads the chain at the block of its
   * time, which a block of the same second may still replace).
   */
  settleSeconds?: number;
  /** Milliseconds since 1970. */
  now?: () => number;
}

/** Prices of a chart's points by time (undefined: no price then), as of `tokens`. */
interface KeptChart {
  tokens: SharedChangeTokens;
  window: ChartWindow;
  prices: Promise<Map<number, number | undefined>>;
}

const sameTokens = (a: SharedChangeTokens, b: SharedChangeTokens) => a.everything === b.everything && a.prices === b.prices;
const sameWindow = (a: ChartWindow, b: ChartWindow) => a.beginAt === b.beginAt && a.endAt === b.endAt && a.intervalSeconds === b.intervalSeconds;

/**
 * Price charts from the price oracle: at each point of the period's window (spec 4.1's table,
 * shared with the wallet charts), the fungible's one price at that time, asked of one of its
 * implementations (any gives the one price; one on a chain with pricing is asked first). A chart
 * is kept under the change tokens: asked again with the same tokens and points it is served as it
 * is; after a price move only the points from the move's earliest time on are priced again, and
 * when the clock moves the window on, only the new points; a rollback prices everything again.
 */
export function createFungibleCharts(options: FungibleChartsOptions): FungibleCharts {
  const { registry, versions } = options;
  const now = options.now ?? Date.now;
  const settleSeconds = options.settleSeconds ?? 60;
  const charts = new LRUCache<string, KeptChart>({ max: options.maxCharts ?? 2_000 });
  /** Where each fungible's history begins, per rollback epoch (only a rollback moves it back; a first price moves it from none). */
  const starts = new LRUCache<string, { everything: string; first: Promise<number | undefined> }>({ max: options.maxCharts ?? 2_000 });

  /** The implementation whose price is asked: one on a chain with pricing, else the first (the oracle routes it to one). */
  const source = (fungible: ChartedFungible) => fungible.implementations.find((ref) => registry.pricing(ref.chainId)) ?? fungible.implementations[0]!;

  /**
   * The time of the fungible's first price: its oldest priced row on the chains with pricing (a
   * native asset's as its wrapped token's), or where those chains' history begins for a
   * stablecoin (priced at 1 throughout) and for a token whose price is composed from others'.
   */
  async function historyStart(fungible: ChartedFungible): Promise<number | undefined> {
    const priced = fungible.implementations.flatMap((ref) => {
      const pricing = registry.pricing(ref.chainId);
      return pricing
        ? [{ chainId: ref.chainId, token: ref.address === '' ? pricing.wrapped_native : ref.address, stable: pricing.usd_stablecoins.includes(ref.address) }]
        : [];
    });
    const chainIds = [...new Set(priced.map((ref) => ref.chainId))];
    if (priced.some((ref) => ref.stable)) return options.firstPrices.firstDayMark(chainIds);
    return (await options.firstPrices.firstPriced(priced)) ?? (await options.firstPrices.firstDayMark(chainIds));
  }

  function historyStartUnder(key: string, fungible: ChartedFungible, tokens: SharedChangeTokens): Promise<number | undefined> {
    const kept = starts.get(key);
    // A start found stays until a rollback; none found yet is looked for again at the next move.
    if (kept && kept.everything === tokens.everything) return kept.first.then((first) => (first === undefined ? historyStart(fungible) : first));
    const first = historyStart(fungible);
    starts.set(key, { everything: tokens.everything, first });
    first.catch(() => {
      if (starts.get(key)?.first === first) starts.delete(key);
    });
    return first;
  }

  /** The prices of the window's points: those `kept` had and no move since touched, the rest from the oracle. */
  async function priceWindow(
    request: FungibleChartRequest,
    window: ChartWindow,
    tokens: SharedChangeTokens,
    kept: KeptChart | undefined,
    nowSeconds: number,
  ): Promise<Map<number, number | undefined>> {
    const carried = new Map<number, number | undefined>();
    if (kept && kept.tokens.everything === tokens.everything) {
      const since = kept.tokens.prices === tokens.prices ? Infinity : await versions.pricesMovedSince(kept.tokens.prices);
      const previous = since === undefined ? undefined : await kept.prices.catch(() => undefined);
      const before = Math.min(since ?? -Infinity, nowSeconds - settleSeconds);
      for (const [time, price] of previous ?? []) if (time < before) carried.set(time, price);
    }
    const times = pointTimes(window);
    const missing = times.filter((time) => !carried.has(time));
    const { chainId, address } = source(request.fungible);
    const answers = await options.oracle.prices(
      request.currency,
      missing.map((timestamp) => ({ chainId, address, timestamp })),
    );
    missing.forEach((time, index) => carried.set(time, answers[index]));
    return new Map(times.map((time) => [time, carried.get(time)]));
  }

  return {
    async chart(request) {
      const tokens = await versions.everythingAndPrices();
      const nowSeconds = Math.floor(now() / 1000);
      const fungibleKey = `${request.network}|${request.fungible.id}`;
      const first = await historyStartUnder(fungibleKey, request.fungible, tokens);
      const window = chartWindow(request.period, nowSeconds, first);
      const key = `${fungibleKey}|${request.currency}|${request.period}`;
      const kept = charts.get(key);
      let prices: Promise<Map<number, number | undefined>>;
      if (kept && sameTokens(kept.tokens, tokens) && sameWindow(kept.window, window)) {
        prices = kept.prices;
      } else {
        prices = priceWindow(request, window, tokens, kept, nowSeconds);
        // Kept at once: concurrent requests for the same chart share the one computation.
        charts.set(key, { tokens, window, prices });
        prices.catch(() => {
          if (charts.get(key)?.prices === prices) charts.delete(key);
        });
      }
      // A stablecoin is priced at 1 at any time: before its chains' history it has no price yet all the same.
      const points = pricedPoints(window, await prices).filter((point) => first !== undefined && point.timestamp >= first);
      return { fungibleId: request.fungible.id, window, points };
    },
  };
}
