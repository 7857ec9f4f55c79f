import {
  Q96,
  alignTick,
  amountsForBurn,
  encodeSqrtPriceX96,
  feeGrowthInside,
  feesEarned,
  getAmount0Delta,
  getAmount1Delta,
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  maxSqrtRatio,
  maxTick,
  minSqrtRatio,
  minTick,
  sqrt,
  usableTickRange,
} from './uniswap-v3.js';

// Expected values are the results the Uniswap V3 contracts give (v3-core test snapshots and specs).
const maxUint256 = (1n << 256n) - 1n;
const e18 = 10n ** 18n;
// encodePriceSqrt(121, 100): sqrt(1.21) * 2^96 rounded down.
const sqrtPrice121over100 = 87150978765690771352898345369n;

describe('getSqrtRatioAtTick', () => {
  test.each([
    [minTick, minSqrtRatio],
    [maxTick, maxSqrtRatio],
    [0, Q96],
    [50, 79426470787362580746886972461n],
    [-50, 79030349367926598376800521322n],
    [100, 79625275426524748796330556128n],
    [-250, 78244023372248365697264290337n],
    [1000, 83290069058676223003182343270n],
    [-3000, 68192822843687888778582228483n],
    [50000, 965075977353221155028623082916n],
    [-150000, 43836292794701720435367485n],
    [500000, 5697689776495288729098254600827762987878n],
    [-738203, 7409801140451n],
    [738203, 847134979253254120489401328389043031315994541n],
  ])('tick %d', (tick, expected) => {
    expect(getSqrtRatioAtTick(tick)).toBe(expected);
  });

  test('rejects ticks outside the range', () => {
    expect(() => getSqrtRatioAtTick(maxTick + 1)).toThrow();
    expect(() => getSqrtRatioAtTick(minTick - 1)).toThrow();
  });
});

describe('getTickAtSqrtRatio', () => {
  test.each([
    [minSqrtRatio, minTick],
    [79228162514264337593543n, -276325],
    [79228162514264337593543950n, -138163],
    [9903520314283042199192993792n, -41591],
    [28011385487393069959365969113n, -20796],
    [56022770974786139918731938227n, -6932],
    [Q96, 0],
    [112045541949572279837463876454n, 6931],
    [224091083899144559674927752909n, 20795],
    [633825300114114700748351602688n, 41590],
    [79228162514264337593543950336000n, 138162],
    [79228162514264337593543950336000000n, 276324],
    [maxSqrtRatio - 1n, maxTick - 1],
  ])('sqrt price %s', (sqrtPriceX96, expected) => {
    expect(getTickAtSqrtRatio(sqrtPriceX96)).toBe(expected);
  });

  test('is the inverse of getSqrtRatioAtTick at tick boundaries and just below them', () => {
    for (const tick of [-200000, -60, -1, 0, 1, 59, 195000]) {
      expect(getTickAtSqrtRatio(getSqrtRatioAtTick(tick))).toBe(tick);
      expect(getTickAtSqrtRatio(getSqrtRatioAtTick(tick) - 1n)).toBe(tick - 1);
    }
  });
});

describe('sqrt and encodeSqrtPriceX96', () => {
  test.each([
    [0n, 0n],
    [1n, 1n],
    [3n, 1n],
    [4n, 2n],
    [10n ** 36n - 1n, 10n ** 18n - 1n],
    [10n ** 36n, 10n ** 18n],
  ])('sqrt(%s)', (value, expected) => {
    expect(sqrt(value)).toBe(expected);
  });

  test.each([
    [1n, 1n, Q96],
    [121n, 100n, sqrtPrice121over100],
    [4n, 1n, 2n * Q96],
    [1n, 4n, Q96 / 2n],
  ])('encodeSqrtPriceX96(%s, %s)', (amount1, amount0, expected) => {
    expect(encodeSqrtPriceX96(amount1, amount0)).toBe(expected);
  });
});

describe('amount deltas, rounding down', () => {
  test('0.1 of token1 and 1/11 of token0 between prices 1 and 1.21', () => {
    expect(getAmount0Delta(sqrtPrice121over100, Q96, e18)).toBe(90909090909090909n);
    expect(getAmount1Delta(Q96, sqrtPrice121over100, e18)).toBe(99999999999999999n);
  });

  test('order of the prices does not matter; equal prices or no liquidity give 0', () => {
    expect(getAmount0Delta(Q96, sqrtPrice121over100, e18)).toBe(90909090909090909n);
    expect(getAmount1Delta(sqrtPrice121over100, Q96, e18)).toBe(99999999999999999n);
    expect(getAmount0Delta(Q96, Q96, e18)).toBe(0n);
    expect(getAmount1Delta(Q96, 2n * Q96, 0n)).toBe(0n);
  });
});

describe('amountsForBurn', () => {
  const lower = -600;
  const upper = 600;
  const liquidity = 123456789n * e18;
  const sqrtLower = getSqrtRatioAtTick(lower);
  const sqrtUpper = getSqrtRatioAtTick(upper);

  test.each([
    ['below the range: all token0', -601, getSqrtRatioAtTick(-601), getAmount0Delta(sqrtLower, sqrtUpper, liquidity), 0n],
    ['in range', 0, Q96, getAmount0Delta(Q96, sqrtUpper, liquidity), getAmount1Delta(sqrtLower, Q96, liquidity)],
    ['at the lower tick: in range', lower, sqrtLower, getAmount0Delta(sqrtLower, sqrtUpper, liquidity), 0n],
    ['at the upper tick: above, all token1', upper, sqrtUpper, 0n, getAmount1Delta(sqrtLower, sqrtUpper, liquidity)],
    // A swap down that stops exactly on the lower tick leaves tick = lower - 1 at the lower sqrt price.
    ['just left at the lower boundary', lower - 1, sqrtLower, getAmount0Delta(sqrtLower, sqrtUpper, liquidity), 0n],
  ])('%s', (_name, tick, sqrtPriceX96, amount0, amount1) => {
    expect(amountsForBurn(sqrtPriceX96, tick, lower, upper, liquidity)).toEqual({ amount0, amount1 });
  });
});

describe('feeGrowthInside (Tick.getFeeGrowthInside cases)', () => {
  const growth = (feeGrowth0X128: bigint, feeGrowth1X128: bigint) => ({ feeGrowth0X128, feeGrowth1X128 });
  const global = growth(15n, 15n);
  const none = growth(0n, 0n);

  test.each([
    ['uninitialised ticks, price inside: everything', 0, none, none, growth(15n, 15n)],
    ['uninitialised ticks, price above: nothing', 4, none, none, growth(0n, 0n)],
    ['uninitialised ticks, price below: nothing', -4, none, none, growth(0n, 0n)],
    ['subtracts the upper tick when below it', 0, none, growth(2n, 3n), growth(13n, 12n)],
    ['subtracts the lower tick when above it', 0, growth(2n, 3n), none, growth(13n, 12n)],
    ['subtracts both ticks when inside', 0, growth(2n, 3n), growth(4n, 1n), growth(9n, 11n)],
    ['wraps around uint256', 0, growth(maxUint256 - 3n, maxUint256 - 2n), growth(3n, 5n), growth(16n, 13n)],
  ])('%s', (_name, tickCurrent, lowerOutside, upperOutside, expected) => {
    expect(feeGrowthInside(tickCurrent, -2, 2, global, lowerOutside, upperOutside)).toEqual(expected);
  });
});

describe('feesEarned', () => {
  const q128 = 1n << 128n;
  test.each([
    ['no growth', 5n * q128, 5n * q128, 1000n, 0n],
    ['growth of 2.5 per unit of liquidity, rounded down', 7n * q128 + q128 / 2n, 5n * q128, 1001n, 2502n],
    ['growth across the uint256 wrap', 3n * q128, (1n << 256n) - q128, 7n, 28n],
    ['truncated to uint128', (1n << 200n) + 5n * q128, 0n, 1n << 100n, 5n << 100n],
  ])('%s', (_name, now, last, liquidity, expected) => {
    expect(feesEarned(now, last, liquidity)).toBe(expected);
  });
});

describe('tick ranges', () => {
  test.each([
    [10, -887270, 887270],
    [60, -887220, 887220],
    [200, -887200, 887200],
  ])('usable range at spacing %d', (spacing, minUsable, maxUsable) => {
    expect(usableTickRange(spacing)).toEqual({ minUsable, maxUsable });
  });

  test.each([
    [-201, 60, -240],
    [-180, 60, -180],
    [59, 60, 0],
    [887271, 60, 887220],
    [-887272, 200, -887200],
  ])('alignTick(%d, %d)', (tick, spacing, expected) => {
    expect(alignTick(tick, spacing)).toBe(expected);
  });
});
