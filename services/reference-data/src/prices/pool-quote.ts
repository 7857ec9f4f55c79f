/**
 * What one pool says about the price of one of its tokens: the price in units of the other token
 * and how much of each token the pool holds. Uniswap V2 from the pair's reserves; V3 from
 * sqrtPriceX96 and the virtual reserves of its in-range liquidity (L/sqrtP and L*sqrtP), which are
 * what a trade near the current price draws on.
 */
export interface PoolState {
  kind: 'v2' | 'v3';
  /** Lowercase addresses. */
  pool: string;
  token0: string;
  token1: string;
  decimals0: number;
  decimals1: number;
  reserve0: bigint;
  reserve1: bigint;
  /** V3 only; 0 for V2. */
  sqrtPriceX96: bigint;
}

export interface PoolQuote {
  /** Whole units of `quote` one whole unit of `token` is worth in this pool. */
  price: number;
  /** Whole units of `quote` the pool holds (V3: virtual reserve). */
  quoteReserve: number;
  /** Whole units of `token` the pool holds (V3: virtual reserve). */
  tokenReserve: number;
}

const q96 = 2 ** 96;

const whole = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/** Whole units of token1 per whole unit of token0; undefined for an empty pool. */
export function price1Per0(state: PoolState): number | undefined {
  if (state.kind === 'v3') {
    if (state.sqrtPriceX96 === 0n) return undefined;
    const sqrt = Number(state.sqrtPriceX96) / q96;
    return sqrt * sqrt * 10 ** (state.decimals0 - state.decimals1);
  }
  if (state.reserve0 === 0n || state.reserve1 === 0n) return undefined;
  return whole(state.reserve1, state.decimals1) / whole(state.reserve0, state.decimals0);
}

/** The pool's price of `token` in `quote` and its depth on both sides; undefined if the pool does not pair them or is empty. */
export function quoteIn(state: PoolState, token: string, quote: string): PoolQuote | undefined {
  const ratio = price1Per0(state);
  if (ratio === undefined || !(ratio > 0) || !Number.isFinite(ratio)) return undefined;
  const [reserve0, reserve1] = [whole(state.reserve0, state.decimals0), whole(state.reserve1, state.decimals1)];
  if (state.token0 === token && state.token1 === quote) return { price: ratio, quoteReserve: reserve1, tokenReserve: reserve0 };
  if (state.token1 === token && state.token0 === quote) return { price: 1 / ratio, quoteReserve: reserve0, tokenReserve: reserve1 };
  return undefined;
}
