import { getAddress } from 'viem';
import { encodeV3Path, gasInOutput, minimumOutput, parseDisplayAmount, priceImpactPercent, protocolFeePercent, type SwapRoute } from './swap-route.js';

const a = getAddress('0x000000000000000000000000000000000000000a');
const b = getAddress('0x000000000000000000000000000000000000000b');
const c = getAddress('0x000000000000000000000000000000000000000c');

describe('parseDisplayAmount', () => {
  test.each([
    ['1.5', 18, 1_500_000_000_000_000_000n],
    ['1', 6, 1_000_000n],
    ['0.000001', 6, 1n],
    ['100.25', 6, 100_250_000n],
    [' 2 ', 0, 2n],
    ['007.10', 2, 710n],
  ])('%s with %i decimals is %s', (text, decimals, expected) => {
    expect(parseDisplayAmount(text, decimals)).toBe(expected);
  });
  test.each([['0'], ['0.000'], ['-1'], ['1e18'], ['1,5'], ['.5'], ['1.'], [''], ['abc'], ['0.0000001']])('%s is refused for 6 decimals', (text) => {
    expect(parseDisplayAmount(text, 6)).toBeUndefined();
  });
  test('the largest uint256 in base units is the largest amount, at any decimals', () => {
    const largest = (2n ** 256n - 1n).toString();
    expect(parseDisplayAmount(largest, 0)).toBe(2n ** 256n - 1n);
    expect(parseDisplayAmount(`${largest.slice(0, -18)}.${largest.slice(-18)}`, 18)).toBe(2n ** 256n - 1n);
    expect(parseDisplayAmount((2n ** 256n).toString(), 0)).toBeUndefined();
    expect(parseDisplayAmount('9'.repeat(78), 0)).toBeUndefined();
    expect(parseDisplayAmount('9'.repeat(60), 18)).toBeUndefined();
  });
});

describe('minimumOutput', () => {
  test.each([
    [1_000_000n, 2, 980_000n],
    [1_000_000n, 50, 500_000n],
    [999n, 0.5, 994n],
    [1_000_000_000n, 0.000001, 999_999_990n],
  ])('%s less %d%% is %s, rounded down', (output, slippage, expected) => {
    expect(minimumOutput(output, slippage)).toBe(expected);
  });
});

describe('protocolFeePercent', () => {
  test('V2 hops take 0.3% each, compounded', () => {
    const route: SwapRoute = { kind: 'v2', router: a, tokens: [a, b, c], pools: [a, b] };
    expect(protocolFeePercent(route)).toBeCloseTo((1 - 0.997 * 0.997) * 100, 12);
  });
  test('V3 hops take their fee tier', () => {
    const route: SwapRoute = { kind: 'v3', swapRouter: a, quoter: b, tokens: [a, b], fees: [500], pools: [c] };
    expect(protocolFeePercent(route)).toBeCloseTo(0.05, 12);
  });
});

test('encodeV3Path packs token, fee (3 bytes), token', () => {
  expect(encodeV3Path([a, b, c], [3000, 500])).toBe(`0x${a.slice(2)}000bb8${b.slice(2)}0001f4${c.slice(2)}`.toLowerCase());
  expect(() => encodeV3Path([a, b], [])).toThrow();
});

describe('priceImpactPercent', () => {
  test('output worth 1% less than the input at the one price', () => {
    // 2 ETH at 3000 USD for 5940 USDC at 1 USD.
    expect(priceImpactPercent({ amount: 2n * 10n ** 18n, decimals: 18, price: 3000 }, { amount: 5_940_000_000n, decimals: 6, price: 1 })).toBeCloseTo(1, 10);
  });
  test('unknown without either price', () => {
    expect(priceImpactPercent({ amount: 1n, decimals: 0, price: undefined }, { amount: 1n, decimals: 0, price: 1 })).toBeUndefined();
    expect(priceImpactPercent({ amount: 1n, decimals: 0, price: 1 }, { amount: 1n, decimals: 0, price: undefined })).toBeUndefined();
  });
});

describe('gasInOutput', () => {
  test('0.001 ETH at 3000 USD is 3 USDC, rounded up to a base unit', () => {
    expect(gasInOutput(10n ** 15n, 18, 3000, { decimals: 6, price: 1 })).toBe(3_000_000n);
  });
  test('unknown without prices', () => {
    expect(gasInOutput(10n ** 15n, 18, undefined, { decimals: 6, price: 1 })).toBeUndefined();
  });
});
