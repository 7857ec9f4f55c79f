import { createPriceBook, type PricingRules } from './price-book.js';
import type { PoolState } from './pool-quote.js';

const usdc = '0x00000000000000000000000000000000000000a1';
const dai = '0x00000000000000000000000000000000000000a2';
const weth = '0x00000000000000000000000000000000000000b2';
const gov = '0x00000000000000000000000000000000000000c3';
const rules: PricingRules = { usdStablecoins: new Set([usdc, dai]), wrappedNative: weth, minLiquidityUsd: 10_000 };

const units = (amount: number, decimals: number) => BigInt(Math.round(amount * 1e6)) * 10n ** BigInt(decimals - 6);

/** A V2 pair holding `amount0` and `amount1` whole units. */
function pair(pool: string, token0: string, token1: string, amount0: number, amount1: number, decimals: [number, number] = [18, 18]): PoolState {
  return { kind: 'v2', pool, token0, token1, decimals0: decimals[0], decimals1: decimals[1], reserve0: units(amount0, decimals[0]), reserve1: units(amount1, decimals[1]), sqrtPriceX96: 0n };
}

describe('price book', () => {
  test('weights each pool by its USD liquidity (twice its quote side) and ignores pools below the threshold', () => {
    const book = createPriceBook(rules);
    book.setPool(pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18])); // 3000, 6M USD
    book.setPool(pair('0x2', weth, dai, 500, 1_550_000)); // 3100, 3.1M USD
    book.setPool(pair('0x3', usdc, weth, 4_000, 0.001, [6, 18])); // 4,000,000 per WETH, 8,000 USD: too thin
    const changes = book.repriceAll();
    const expected = (3000 * 6_000_000 + 3100 * 3_100_000) / 9_100_000;
    expect(changes.get(weth)).toBeCloseTo(expected, 9);
    expect(book.price(weth)).toBe(changes.get(weth));
    expect(book.price(usdc)).toBe(1);
    expect([...book.prices().keys()]).toEqual([weth]);
  });

  test('prices a token through the wrapped native token and its stablecoin pools together, and moves it with the wrapped native price', () => {
    const book = createPriceBook(rules);
    book.setPool(pair('0x1', usdc, weth, 3_000_000, 1_000, [6, 18]));
    book.setPool(pair('0x4', gov, weth, 100_000, 20)); // 0.0002 WETH = 0.6 USD, liquidity 2 * 20 * 3000 = 120,000
    book.setPool(pair('0x5', usdc, gov, 40_000, 50_000, [6, 18])); // 0.8 USD, liquidity 80,000
    book.repriceAll();
    expect(book.price(gov)).toBeCloseTo((0.6 * 120_000 + 0.8 * 80_000) / 200_000, 12);

    book.setPool(pair('0x1', usdc, weth, 3_300_000, 1_000, [6, 18]));
    const changes = book.reprice(['0x1']);
    expect(changes.get(weth)).toBeCloseTo(3300, 9);
    expect(changes.get(gov)).toBeCloseTo((0.66 * 132_000 + 0.8 * 80_000) / 212_000, 12);
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
