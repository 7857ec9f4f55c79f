import { rawPrice, v2Rebalance } from './market-maker.js';
import { priceFraction } from './prices.js';

describe('priceFraction with 15 digits (the V3 price limits)', () => {
  test.each([3000, 0.000_001_234_5, 1, 59_922.125, 3.3e-10])('%p to 15 significant digits', (value) => {
    const { numerator, denominator } = priceFraction(value, 15);
    expect(Math.abs(Number(numerator) / Number(denominator) / value - 1)).toBeLessThan(1e-14);
  });
});

describe('v2Rebalance', () => {
  // A WETH (token0, 18 decimals) / USDC (token1, 6 decimals) pair: 1,000 WETH against 3,000,000 USDC.
  const [reserve0, reserve1] = [1_000n * 10n ** 18n, 3_000_000n * 10n ** 6n];
  const swap = (trade: { zeroForOne: boolean; amountIn: bigint }) => {
    const amountIn = Number(trade.amountIn) * 0.997;
    const [r0, r1] = [Number(reserve0), Number(reserve1)];
    return trade.zeroForOne ? [r0 + amountIn, (r0 * r1) / (r0 + amountIn)] : [(r0 * r1) / (r1 + amountIn), r1 + amountIn];
  };

  test('leaves a pair within its 0.3% band alone', () => {
    expect(v2Rebalance(reserve0, reserve1, rawPrice(3005, 18, 1, 6))).toBeUndefined();
    expect(v2Rebalance(reserve0, reserve1, rawPrice(2995, 18, 1, 6))).toBeUndefined();
  });

  test.each([
    ['ether up 10%: buys WETH with USDC', 3300, false],
    ['ether down 20%: sells WETH for USDC', 2400, true],
  ])('%s and lands on the target', (_, usd, zeroForOne) => {
    const target = rawPrice(usd, 18, 1, 6);
    const trade = v2Rebalance(reserve0, reserve1, target)!;
    expect(trade.zeroForOne).toBe(zeroForOne);
    const [r0, r1] = swap(trade);
    expect(Math.abs(r1! / r0! / target - 1)).toBeLessThan(1e-9);
  });

  test('an empty pair is not traded', () => {
    expect(v2Rebalance(0n, reserve1, 1)).toBeUndefined();
  });
});
