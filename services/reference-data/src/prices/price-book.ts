import { quoteIn, type PoolState } from './pool-quote.js';

/** One chain's routing (registry `pricing`), addresses lowercase. */
export interface PricingRules {
  usdStablecoins: ReadonlySet<string>;
  wrappedNative: string;
  minLiquidityUsd: number;
}

/**
 * The trusted pools of one chain in their latest state and the token prices they make. A token's
 * price is the mean of its pools' prices weighted by each pool's liquidity in USD (both sides, at
 * the pool's own price: twice its quote side), over the pools that pair it with a USD stablecoin
 * (worth 1) or with the wrapped native token (priced first, from its stablecoin pools alone);
 * a pool below the liquidity threshold counts for nothing, so a thin pool cannot set a price.
 * Stablecoins are worth 1 by definition and are not kept here.
 */
export interface PriceBook {
  setPool(state: PoolState): void;
  removePool(pool: string): void;
  hasPool(pool: string): boolean;
  /** Recomputes what depends on these pools; answers the tokens whose price changed (undefined: no longer priced). */
  reprice(pools: Iterable<string>): Map<string, number | undefined>;
  /** Recomputes every price, after many pools were replaced at once. */
  repriceAll(): Map<string, number | undefined>;
  price(token: string): number | undefined;
  /** Every priced token (stablecoins aside) and its price. */
  prices(): ReadonlyMap<string, number>;
}

export function createPriceBook(rules: PricingRules): PriceBook {
  const pools = new Map<string, PoolState>();
  const poolsOfToken = new Map<string, Set<string>>();
  const prices = new Map<string, number>();
  const weth = rules.wrappedNative;

  const index = (token: string) => {
    let set = poolsOfToken.get(token);
    if (!set) poolsOfToken.set(token, (set = new Set()));
    return set;
  };

  function quotePrice(token: string, quote: string, wethPrice: number | undefined): number | undefined {
    if (rules.usdStablecoins.has(quote)) return 1;
    if (quote === weth && token !== weth) return wethPrice;
    return undefined;
  }

  function weightedPrice(token: string, wethPrice: number | undefined): number | undefined {
    let weights = 0;
    let weighted = 0;
    for (const address of poolsOfToken.get(token) ?? []) {
      const pool = pools.get(address)!;
      const quote = pool.token0 === token ? pool.token1 : pool.token0;
      const unit = quotePrice(token, quote, wethPrice);
      if (unit === undefined) continue;
      const quoted = quoteIn(pool, token, quote);
      if (!quoted) continue;
      const liquidityUsd = 2 * quoted.quoteReserve * unit;
      if (!(liquidityUsd >= rules.minLiquidityUsd) || liquidityUsd === 0) continue;
      weights += liquidityUsd;
      weighted += liquidityUsd * quoted.price * unit;
    }
    return weights > 0 ? weighted / weights : undefined;
  }

  function update(token: string, next: number | undefined, changes: Map<string, number | undefined>) {
    if (prices.get(token) === next) return;
    if (next === undefined) prices.delete(token);
    else prices.set(token, next);
    changes.set(token, next);
  }

  function repriceTokens(tokens: Set<string>): Map<string, number | undefined> {
    const changes = new Map<string, number | undefined>();
    if (tokens.has(weth)) {
      const before = prices.get(weth);
      update(weth, weightedPrice(weth, undefined), changes);
      // Every token quoted in the wrapped native token moves with it.
      if (prices.get(weth) !== before) {
        for (const address of poolsOfToken.get(weth) ?? []) {
          const pool = pools.get(address)!;
          tokens.add(pool.token0 === weth ? pool.token1 : pool.token0);
        }
      }
    }
    const wethPrice = prices.get(weth);
    for (const token of tokens) {
      if (token === weth || rules.usdStablecoins.has(token)) continue;
      update(token, weightedPrice(token, wethPrice), changes);
    }
    return changes;
  }

  return {
    setPool(state) {
      pools.set(state.pool, state);
      index(state.token0).add(state.pool);
      index(state.token1).add(state.pool);
    },
    removePool(pool) {
      const state = pools.get(pool);
      if (!state) return;
      pools.delete(pool);
      poolsOfToken.get(state.token0)?.delete(pool);
      poolsOfToken.get(state.token1)?.delete(pool);
    },
    hasPool: (pool) => pools.has(pool),
    reprice(changed) {
      const tokens = new Set<string>();
      for (const address of changed) {
        const pool = pools.get(address);
        if (pool) tokens.add(pool.token0).add(pool.token1);
      }
      return repriceTokens(tokens);
    },
    repriceAll() {
      return repriceTokens(new Set([...poolsOfToken.keys(), ...prices.keys()]));
    },
    price: (token) => (rules.usdStablecoins.has(token) ? 1 : prices.get(token)),
    prices: () => prices,
  };
}
