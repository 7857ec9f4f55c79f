import { quoteIn, type PoolState } from './pool-quote.js';

/** One chain's routing (registry `pricing`), addresses lowercase. */
export interface PricingRules {
  usdStablecoins: ReadonlySet<string>;
  wrappedNative: string;
  minLiquidityUsd: number;
  /** Relative distance from the consensus beyond which a pool's price is dropped. */
  maxDeviation: number;
}

/**
 * One source's word on a token: its price in USD, its weight (a quantity that trading in the
 * source cannot change, see PriceBook) and the whole units of the token it holds.
 */
export interface PriceCandidate {
  price: number;
  weight: number;
  tokenDepth: number;
}

/** A consensus price and the weight of the candidates kept. */
export interface Consensus {
  price: number;
  weight: number;
}

/**
 * The price the candidates agree on (see PriceBook): the weighted median, then the weighted mean
 * of the candidates within `maxDeviation` of it and holding at least `minDepthUsd` of the token
 * valued at the median; undefined when none is left.
 */
export function consensusPrice(candidates: readonly PriceCandidate[], maxDeviation: number, minDepthUsd = 0): Consensus | undefined {
  const sorted = [...candidates].sort((a, b) => a.price - b.price);
  const total = sorted.reduce((sum, candidate) => sum + candidate.weight, 0);
  let cumulative = 0;
  const median = sorted.find((candidate) => (cumulative += candidate.weight) * 2 >= total)?.price;
  if (median === undefined) return undefined;
  let weights = 0;
  let weighted = 0;
  for (const candidate of candidates) {
    if (!(Math.abs(candidate.price - median) <= maxDeviation * median)) continue;
    if (!(candidate.tokenDepth * median >= minDepthUsd)) continue;
    weights += candidate.weight;
    weighted += candidate.weight * candidate.price;
  }
  return weights > 0 ? { price: weighted / weights, weight: weights } : undefined;
}

/**
 * The trusted pools of one chain in their latest state and the token prices they make, from the
 * pools pairing a token with a USD stablecoin (worth 1) or with the wrapped native token (priced
 * first, from its stablecoin pools alone). Stablecoins are worth 1 by definition and are not kept.
 *
 * A pool's price is what its manipulator sets, and a swap changes what a pool holds, so no pool
 * may weigh by what it holds after the swap: weighting by the quote side let a pair drained of
 * WETH with a stablecoin (148 WETH against 5.6 billion DAI) outweigh every honest pool, and
 * weighting by the token side let a V3 pool whose WETH price was pushed down 100x (its in-range
 * virtual WETH reserve grows tenfold) take the median. Pools weigh instead by the geometric mean
 * of their two sides, sqrt(token held x quote held in USD): a swap keeps it (V2's x*y = k, V3's
 * in-range x*y = L^2), so only real liquidity adds weight, and liquidity out of range adds none.
 * The consensus is the weighted median, which pools of less than half the weight cannot move
 * however far off they are; pools further than `maxDeviation` from it are dropped, so an outlier
 * cannot pull the mean either, and the price is the weighted mean of the rest, which moves
 * smoothly with trading in the deep pools. A pool must also hold at least half of
 * `minLiquidityUsd` on each side, the token side valued at the consensus rather than at its own
 * price: a thin pool cannot set a price, nor can one whose quote side a dump of the token drained.
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
  /**
   * The weight of the pools behind the token's price in USD, sqrt(token x quote) x sqrt(price)
   * (0 when unpriced): its weight against the same token's price on other chains.
   */
  depthUsd(token: string): number;
}

export function createPriceBook(rules: PricingRules): PriceBook {
  const pools = new Map<string, PoolState>();
  const poolsOfToken = new Map<string, Set<string>>();
  const prices = new Map<string, number>();
  /** Weight (sqrt(token x USD)) behind each price. */
  const weights = new Map<string, number>();
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

  function weightedPrice(token: string, wethPrice: number | undefined): Consensus | undefined {
    const candidates: PriceCandidate[] = [];
    for (const address of poolsOfToken.get(token) ?? []) {
      const pool = pools.get(address)!;
      const quote = pool.token0 === token ? pool.token1 : pool.token0;
      const unit = quotePrice(token, quote, wethPrice);
      if (unit === undefined) continue;
      const quoted = quoteIn(pool, token, quote);
      if (!quoted) continue;
      const quoteUsd = quoted.quoteReserve * unit;
      if (!(quoteUsd >= rules.minLiquidityUsd / 2) || quoteUsd === 0 || !(quoted.tokenReserve > 0)) continue;
      candidates.push({ price: quoted.price * unit, weight: Math.sqrt(quoted.tokenReserve * quoteUsd), tokenDepth: quoted.tokenReserve });
    }
    return consensusPrice(candidates, rules.maxDeviation, rules.minLiquidityUsd / 2);
  }

  function update(token: string, consensus: Consensus | undefined, changes: Map<string, number | undefined>) {
    const next = consensus?.price;
    if (consensus) weights.set(token, consensus.weight);
    else weights.delete(token);
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
    depthUsd: (token) => (weights.get(token) ?? 0) * Math.sqrt(prices.get(token) ?? 0),
  };
}
