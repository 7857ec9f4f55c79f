import type { UniswapToken } from './manifest.js';
import { amountForUsd, priceFraction, roundPrice, usdValueE6 } from './prices.js';

describe('priceFraction', () => {
  test.each([
    [3000, 3000n, 1n],
    [60000, 60000n, 1n],
    [1, 1000n, 1000n],
    [0.5, 5000n, 10000n],
    [12.34, 1234n, 100n],
    [2.4e-7, 2400n, 10n ** 10n],
  ])('%d USD', (price, numerator, denominator) => {
    expect(priceFraction(price)).toEqual({ numerator, denominator });
  });

  test('rejects prices that are not positive', () => {
    expect(() => priceFraction(0)).toThrow();
    expect(() => priceFraction(Number.NaN)).toThrow();
  });
});

test.each([
  [1234.5678, 1235],
  [0.000012346, 0.00001235],
  [3000, 3000],
])('roundPrice(%d)', (price, expected) => {
  expect(roundPrice(price)).toBe(expected);
});

describe('amounts at reference prices', () => {
  const token = (decimals: number, priceUsd: number): UniswapToken => ({
    symbol: 'T',
    address: '0x0000000000000000000000000000000000000001',
    decimals,
    priceUsd,
  });

  test.each([
    ['a million USD of a 6-decimal stable', token(6, 1), 1_000_000_000_000n, 1_000_000_000_000n, 1_000_000_000_000n],
    ['3,000 USD of ether', token(18, 3000), 3_000_000_000n, 10n ** 18n, 3_000_000_000n],
    ['30,000 USD of 8-decimal bitcoin', token(8, 60000), 30_000_000_000n, 50_000_000n, 30_000_000_000n],
    // 1 / 2.4e-7 tokens is a repeating decimal: both directions round down.
    ['1 USD of a meme token', token(18, 2.4e-7), 1_000_000n, 4166666666666666666666666n, 999_999n],
  ])('%s', (_name, priced, usdE6, amount, valueBack) => {
    expect(amountForUsd(priced, usdE6)).toBe(amount);
    expect(usdValueE6(priced, amount)).toBe(valueBack);
  });
});
