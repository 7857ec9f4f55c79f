import { price1Per0, quoteIn, type PoolState } from './pool-quote.js';

const usdc = '0x00000000000000000000000000000000000000a1';
const weth = '0x00000000000000000000000000000000000000b2';

const v2 = (reserve0: bigint, reserve1: bigint): PoolState => ({
  kind: 'v2',
  pool: '0xp',
  token0: usdc,
  token1: weth,
  decimals0: 6,
  decimals1: 18,
  reserve0,
  reserve1,
  sqrtPriceX96: 0n,
});

describe('pool quotes', () => {
  test.each([
    ['a V2 pair from its reserves', v2(3_000_000n * 10n ** 6n, 1_000n * 10n ** 18n), 1 / 3000],
    // sqrtPriceX96 = sqrt(price1Per0 in base units) * 2^96; 1/3000 WETH per USDC is 1e12/3000 wei per micro-USDC.
    ['a V3 pool from sqrtPriceX96', { ...v2(0n, 0n), kind: 'v3' as const, sqrtPriceX96: BigInt(Math.round(Math.sqrt(1e12 / 3000) * 2 ** 96)) }, 1 / 3000],
  ])('%s', (_name, state, expected) => {
    expect(price1Per0(state)).toBeCloseTo(expected, 12);
  });

  test('quotes either token in the other, with the depth of both sides; an empty or unrelated pool quotes nothing', () => {
    const pool = v2(3_000_000n * 10n ** 6n, 1_000n * 10n ** 18n);
    const wethInUsdc = quoteIn(pool, weth, usdc)!;
    expect(wethInUsdc.price).toBeCloseTo(3000, 9);
    expect([wethInUsdc.quoteReserve, wethInUsdc.tokenReserve]).toEqual([3_000_000, 1000]);
    expect(quoteIn(pool, usdc, weth)).toEqual({ price: 1 / 3000, quoteReserve: 1000, tokenReserve: 3_000_000 });
    expect(quoteIn(v2(0n, 10n), weth, usdc)).toBeUndefined();
    expect(quoteIn(pool, weth, '0x00000000000000000000000000000000000000c3')).toBeUndefined();
  });
});
