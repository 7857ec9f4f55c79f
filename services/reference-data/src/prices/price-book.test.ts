import { createPriceBook, type PricingRules } from './price-book.js';
import type { PoolState } from './pool-quote.js';

const usdc = '0x00000000000000000000000000000000000000a1';
const dai = '0x00000000000000000000000000000000000000a2';
const weth = '0x00000000000000000000000000000000000000b2';
const gov = '0x00000000000000000000000000000000000000c3';
const rules: PricingRules = { usdStablecoins: new Set([usdc, dai]), wrappedNative: weth, minLiquidityUsd: 10_000, maxDeviation: 0.1 };

const units = (amount: number, decimals: number) => BigInt(Math.round(amount * 1e6)) * 10n ** BigInt(decimals - 6);

/** A V2 pair holding `amount0` and `amount1` whole units. */
function pair(pool: string, token0: string, token1: string, amount0: number, amount1: number, decimals: [number, number] = [18, 18]): PoolState {
  return {
    kind: 'v2',
    pool,
    token0,
    token1,
    decimals0: decimals[0],
    decimals1: decimals[1],
    reserve0: units(amount0, decimals[0]),
    reserve1: units(amount1, decimals[1]),
    sqrtPriceX96: 0n,
  };
}

/** The mean of V2 pairs' prices (quote USD over token) weighted by sqrt(token x quote USD), given [token, quote USD] per kept pair. */
function weightedMean(...pools: [number, number][]): number {
  const weights = pools.map(([token, quote]) => Math.sqrt(token * quote));
  return pools.reduce((sum, [token, quote], index) => sum + weights[index]! * (quote / token), 0) / weights.reduce((sum, weight) => sum + weight, 0);
}

describe('price book', () => {
  test.each([
    [
      'a pair drained of WETH by dumping DAI into it (1 WETH = 38M DAI) sets no price',
      [pair('0x1', usdc, weth, 200_000_000, 66_682, [6, 18]), pair('0x2', weth, dai, 500, 1_550_000), pair('0x3', weth, dai, 148, 5_600_000_000)],
      weightedMean([66_682, 200_000_000], [500, 1_550_000]),
    ],
    [
      'a pair WETH was dumped into (10 DAI per WETH, quote side above the threshold) sets no price',
      [pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]), pair('0x2', weth, dai, 500, 1_550_000), pair('0x3', weth, dai, 900, 9_000)],
      weightedMean([1_000, 3_000_000], [500, 1_550_000]),
    ],
    [
      'a pair WETH was dumped into until WETH is worth a hundredth there keeps its weight (x*y) and does not take the median',
      [pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]), pair('0x2', weth, dai, 500, 1_500_000), pair('0x3', weth, dai, 10_000, 300_000)],
      3000,
    ],
    [
      'a pool exactly at the deviation bound (3300 against a consensus of 3000) counts',
      [pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]), pair('0x2', weth, dai, 500, 1_650_000)],
      weightedMean([1_000, 3_000_000], [500, 1_650_000]),
    ],
    ['a pool just beyond the bound (3303) does not', [pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]), pair('0x2', weth, dai, 500, 1_651_500)], 3000],
    [
      'a pool whose quote side is below half the threshold does not',
      [pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]), pair('0x2', usdc, weth, 4_000, 1.3, [6, 18])],
      3000,
    ],
    [
      'a pool whose WETH, valued at the consensus, is below half the threshold does not, though its quote side is above',
      [pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]), pair('0x2', weth, dai, 1.6, 5_200)],
      3000,
    ],
    [
      "the median follows the pools' weight, not their count or their own valuations",
      [pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]), pair('0x2', weth, dai, 400, 2_000_000), pair('0x3', weth, dai, 300, 1_500_000)],
      3000,
    ],
    ['no pool at all above the threshold: no price', [pair('0x1', usdc, weth, 4_000, 1.3, [6, 18])], undefined],
  ])('%s', (_name, pools, expected) => {
    const book = createPriceBook(rules);
    for (const pool of pools) book.setPool(pool);
    const changes = book.repriceAll();
    if (expected === undefined) {
      expect(changes.size).toBe(0);
      expect(book.price(weth)).toBeUndefined();
      return;
    }
    expect(changes.get(weth)).toBeCloseTo(expected, 9);
    expect(book.price(weth)).toBe(changes.get(weth));
    expect(book.price(usdc)).toBe(1);
    expect([...book.prices().keys()]).toEqual([weth]);
  });

  test("the deviation bound is the registry's", () => {
    const book = createPriceBook({ ...rules, maxDeviation: 0.2 });
    book.setPool(pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]));
    book.setPool(pair('0x2', weth, dai, 500, 1_750_000)); // 3500: 16.7% off
    book.repriceAll();
    expect(book.price(weth)).toBeCloseTo(weightedMean([1_000, 3_000_000], [500, 1_750_000]), 9);
  });

  test('prices a token through the wrapped native token and its stablecoin pools together, and moves it with the wrapped native price', () => {
    const book = createPriceBook(rules);
    book.setPool(pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]));
    book.setPool(pair('0x4', gov, weth, 100_000, 20)); // 0.0002 WETH = 0.6 USD, 100,000 GOV deep
    book.setPool(pair('0x5', usdc, gov, 31_000, 50_000, [6, 18])); // 0.62 USD, 50,000 GOV deep
    book.repriceAll();
    expect(book.price(gov)).toBeCloseTo(weightedMean([100_000, 60_000], [50_000, 31_000]), 12);

    book.setPool(pair('0x1', usdc, weth, 3_300_000, 1_000, [6, 18]));
    const changes = book.reprice(['0x1']);
    expect(changes.get(weth)).toBeCloseTo(3300, 9);
    expect(changes.get(gov)).toBeCloseTo(weightedMean([100_000, 66_000], [50_000, 31_000]), 12);
  });

  test('a token whose pools all fall below the threshold loses its price; an unchanged price is not a change', () => {
    const book = createPriceBook(rules);
    book.setPool(pair('0x5', usdc, gov, 40_000, 50_000, [6, 18]));
    book.repriceAll();
    expect(book.reprice(['0x5']).size).toBe(0);
    book.setPool(pair('0x5', usdc, gov, 4_000, 5_000, [6, 18]));
    const changes = book.reprice(['0x5']);
    expect(changes.has(gov)).toBe(true);
    expect(changes.get(gov)).toBeUndefined();
    expect(book.price(gov)).toBeUndefined();
    book.removePool('0x5');
    expect(book.hasPool('0x5')).toBe(false);
  });

  test('the wrapped native token is priced from its stablecoin pools only, never from a token it prices', () => {
    const book = createPriceBook(rules);
    book.setPool(pair('0x4', gov, weth, 100_000, 20));
    expect(book.repriceAll().size).toBe(0);
    expect(book.price(weth)).toBeUndefined();
    expect(book.price(gov)).toBeUndefined();
  });
});
