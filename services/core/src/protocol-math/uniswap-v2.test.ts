import { protocolFeeLiquidity, v2BurnAmounts } from './uniswap-v2.js';

describe('protocolFeeLiquidity', () => {
  test.each([
    ['fee off', false, 810000n, 1000n, 1000n, 1000n, 0n],
    ['no kLast yet', true, 0n, 1000n, 1000n, 1000n, 0n],
    ['k did not grow', true, 1000000n, 1000n, 1000n, 1000n, 0n],
    // rootK 1000, rootKLast 900: 1000 * 100 / (5 * 1000 + 900) = 16.9 -> 16
    ['a sixth of the growth of sqrt(k)', true, 810000n, 1000n, 1000n, 1000n, 16n],
    // sqrt(2000 * 501) = 1000 (floor of 1000.99...), same as the Babylonian sqrt
    ['floor square roots', true, 810001n, 2000n, 501n, 1000n, 16n],
  ])('%s', (_name, feeOn, kLast, reserve0, reserve1, totalSupply, expected) => {
    expect(protocolFeeLiquidity(feeOn, kLast, reserve0, reserve1, totalSupply)).toBe(expected);
  });
});

describe('v2BurnAmounts', () => {
  test.each([
    ['whole supply', 1000n, 1000n, 500n, 7n, 0n, 500n, 7n],
    ['rounds down', 333n, 1000n, 1000n, 3001n, 0n, 333n, 999n],
    ['fee mint dilutes the burn', 500n, 1000n, 1000n, 1000n, 16n, 492n, 492n],
  ])('%s', (_name, liquidity, totalSupply, balance0, balance1, feeLiquidity, amount0, amount1) => {
    expect(v2BurnAmounts({ liquidity, totalSupply, balance0, balance1, feeLiquidity })).toEqual({ amount0, amount1 });
  });
});
