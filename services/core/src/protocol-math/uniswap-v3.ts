/*
 * Uniswap V3 arithmetic in bigint, written to give the same integers as the contracts
 * (TickMath, SqrtPriceMath, Tick.getFeeGrowthInside, the pool's burn and the position manager's
 * fee accounting), so that chain truth can be computed off-chain to the wei.
 */

export const Q96 = 1n << 96n;
export const Q128 = 1n << 128n;
const uint256 = 1n << 256n;
const uint128 = 1n << 128n;
const maxUint256 = uint256 - 1n;

export const minTick = -887272;
export const maxTick = 887272;
export const minSqrtRatio = 4295128739n;
export const maxSqrtRatio = 1461446703485210103287273052203988822378723970342n;

/** Tick spacing the V3 factory enables for each fee tier at deployment. */
export const tickSpacingByFee: Readonly<Record<number, number>> = { 500: 10, 3000: 60, 10000: 200 };

// TickMath's per-bit factors: 2^128 / sqrt(1.0001)^(2^i), i = 0..19.
const tickFactors = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/** TickMath.getSqrtRatioAtTick: sqrt(1.0001^tick) as Q64.96, rounded up. */
export function getSqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < minTick || tick > maxTick) throw new Error(`tick ${tick} is out of range`);
  const absTick = Math.abs(tick);
  let ratio = absTick & 1 ? tickFactors[0]! : 1n << 128n;
  for (let bit = 1; bit < tickFactors.length; bit++) {
    if (absTick & (1 << bit)) ratio = (ratio * tickFactors[bit]!) >> 128n;
  }
  if (tick > 0) ratio = maxUint256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/**
 * TickMath.getTickAtSqrtRatio: the greatest tick whose sqrt ratio is at most `sqrtPriceX96`.
 * A binary search over getSqrtRatioAtTick gives the same tick by that definition.
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < minSqrtRatio || sqrtPriceX96 >= maxSqrtRatio) throw new Error(`sqrt price ${sqrtPriceX96} is out of range`);
  let low = minTick;
  let high = maxTick - 1;
  while (low < high) {
    const middle = low + Math.floor((high - low + 1) / 2);
    if (getSqrtRatioAtTick(middle) <= sqrtPriceX96) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Floor square root (the Babylonian `Math.sqrt` of Uniswap V2 gives the same result). */
export function sqrt(value: bigint): bigint {
  if (value < 0n) throw new Error('square root of a negative number');
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + value / x) / 2n;
  }
  return x;
}

/** sqrt(amount1 / amount0) as Q64.96, rounded down: the initial price of a pool holding that ratio. */
export function encodeSqrtPriceX96(amount1: bigint, amount0: bigint): bigint {
  return sqrt((amount1 << 192n) / amount0);
}

/** SqrtPriceMath.getAmount0Delta with roundUp = false. */
export function getAmount0Delta(sqrtRatioA: bigint, sqrtRatioB: bigint, liquidity: bigint): bigint {
  const [lower, upper] = sqrtRatioA > sqrtRatioB ? [sqrtRatioB, sqrtRatioA] : [sqrtRatioA, sqrtRatioB];
  return ((liquidity << 96n) * (upper - lower)) / upper / lower;
}

/** SqrtPriceMath.getAmount1Delta with roundUp = false. */
export function getAmount1Delta(sqrtRatioA: bigint, sqrtRatioB: bigint, liquidity: bigint): bigint {
  const [lower, upper] = sqrtRatioA > sqrtRatioB ? [sqrtRatioB, sqrtRatioA] : [sqrtRatioA, sqrtRatioB];
  return (liquidity * (upper - lower)) / Q96;
}

export interface TokenAmounts {
  amount0: bigint;
  amount1: bigint;
}

/**
 * What the pool pays for burning `liquidity` from [tickLower, tickUpper) (UniswapV3Pool._modifyPosition
 * with a negative delta): which side of the range the price is on is decided by the current tick,
 * and both deltas round down.
 */
export function amountsForBurn(sqrtPriceX96: bigint, tickCurrent: number, tickLower: number, tickUpper: number, liquidity: bigint): TokenAmounts {
  const sqrtLower = getSqrtRatioAtTick(tickLower);
  const sqrtUpper = getSqrtRatioAtTick(tickUpper);
  if (tickCurrent < tickLower) return { amount0: getAmount0Delta(sqrtLower, sqrtUpper, liquidity), amount1: 0n };
  if (tickCurrent < tickUpper) {
    return { amount0: getAmount0Delta(sqrtPriceX96, sqrtUpper, liquidity), amount1: getAmount1Delta(sqrtLower, sqrtPriceX96, liquidity) };
  }
  return { amount0: 0n, amount1: getAmount1Delta(sqrtLower, sqrtUpper, liquidity) };
}

export interface FeeGrowth {
  feeGrowth0X128: bigint;
  feeGrowth1X128: bigint;
}

/** Tick.getFeeGrowthInside, with the uint256 wrap-around the contract relies on. */
export function feeGrowthInside(
  tickCurrent: number,
  tickLower: number,
  tickUpper: number,
  global: FeeGrowth,
  lowerOutside: FeeGrowth,
  upperOutside: FeeGrowth,
): FeeGrowth {
  const inside = (globalGrowth: bigint, lowerGrowth: bigint, upperGrowth: bigint) => {
    const below = tickCurrent >= tickLower ? lowerGrowth : globalGrowth - lowerGrowth;
    const above = tickCurrent < tickUpper ? upperGrowth : globalGrowth - upperGrowth;
    return (((globalGrowth - below - above) % uint256) + uint256) % uint256;
  };
  return {
    feeGrowth0X128: inside(global.feeGrowth0X128, lowerOutside.feeGrowth0X128, upperOutside.feeGrowth0X128),
    feeGrowth1X128: inside(global.feeGrowth1X128, lowerOutside.feeGrowth1X128, upperOutside.feeGrowth1X128),
  };
}

/**
 * Fees a position earned since its last snapshot: uint128(mulDiv(inside - last, liquidity, 2^128))
 * with the subtraction wrapping in uint256 and the result truncated to uint128, as in both the
 * pool's Position.update and the position manager.
 */
export function feesEarned(insideNowX128: bigint, insideLastX128: bigint, liquidity: bigint): bigint {
  const growth = (((insideNowX128 - insideLastX128) % uint256) + uint256) % uint256;
  return ((growth * liquidity) / Q128) % uint128;
}

/** tokensOwed += earned, in uint128 as the 0.7 contracts add without an overflow check. */
export function addOwed(owed: bigint, earned: bigint): bigint {
  return (owed + earned) % uint128;
}

/** The lowest and highest ticks a position may use at this spacing (TickMath bounds rounded inwards). */
export function usableTickRange(tickSpacing: number): { minUsable: number; maxUsable: number } {
  return { minUsable: Math.ceil(minTick / tickSpacing) * tickSpacing, maxUsable: Math.floor(maxTick / tickSpacing) * tickSpacing };
}

/** Rounds a tick down to a multiple of the spacing, staying inside the usable range. */
export function alignTick(tick: number, tickSpacing: number): number {
  const { minUsable, maxUsable } = usableTickRange(tickSpacing);
  return Math.min(maxUsable, Math.max(minUsable, Math.floor(tick / tickSpacing) * tickSpacing));
}
