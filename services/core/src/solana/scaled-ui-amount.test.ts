import type { ScaledUiAmount } from '../generated/proto/reference_data.js';
import { parseDecimal, scaledQuantity, uiMultiplierAt } from './scaled-ui-amount.js';

describe('uiMultiplierAt', () => {
  const scaled: ScaledUiAmount = { multiplier: '1.5', newMultiplier: '3', newMultiplierEffectiveTimestamp: '1700000000' };
  test.each([
    ['an unscaled token', {}, 1_800_000_000, undefined],
    ['before the new multiplier takes effect', { scaledUiAmount: scaled }, 1_699_999_999, '1.5'],
    ['at its effective timestamp (inclusive)', { scaledUiAmount: scaled }, 1_700_000_000, '3'],
    ['after it', { scaledUiAmount: scaled }, 1_800_000_000, '3'],
    [
      'a mint never updated (timestamp 0, both multipliers equal)',
      { scaledUiAmount: { multiplier: '2', newMultiplier: '2', newMultiplierEffectiveTimestamp: '0' } },
      0,
      '2',
    ],
  ])('%s', (_name, info, unixSeconds, expected) => {
    expect(uiMultiplierAt(info, unixSeconds)).toBe(expected);
  });
});

describe('parseDecimal', () => {
  test.each([
    ['1', 1n, 0],
    ['1.5', 15n, 1],
    ['0.0000001', 1n, 7],
    ['1e-7', 1n, 7],
    ['1.25E+3', 1250n, 0],
    ['.5', 5n, 1],
    ['2.', 2n, 0],
    ['1.0000000000000002', 10000000000000002n, 16],
  ])('%s is %s / 10^%i', (text, digits, scale) => {
    expect(parseDecimal(text)).toEqual({ digits, scale });
  });

  test.each(['', '.', '-1', 'NaN', 'inf', '1,5', '0x10', '1e'])('refuses %j', (text) => {
    expect(() => parseDecimal(text)).toThrow(RangeError);
  });
});

describe('scaledQuantity', () => {
  test.each([
    [1_000_000n, 6, '1', '1'],
    [1_500_000n, 6, '2', '3'],
    [1_000_000n, 6, '1.5', '1.5'],
    [1n, 6, '1.5', '0.0000015'],
    [0n, 9, '1.5', '0'],
    // 1.0000000000000002 is the f64 just above 1; every digit of it counts.
    [123_456_789n, 6, '1.0000000000000002', '123.4567890000000246913578'],
    [10n ** 19n, 9, '0.1', '1000000000'],
    [2n ** 64n - 1n, 9, '1000000', '18446744073709551.615'],
    [7n, 0, '1e-7', '0.0000007'],
    [3n, 2, '1.25E+3', '37.5'],
    [-2_500_000n, 6, '2', '-5'],
  ])('%s base units, %i decimals, multiplier %s: %s', (raw, decimals, multiplier, numeric) => {
    expect(scaledQuantity(raw, decimals, multiplier)).toEqual({ numeric, float: Number(numeric) });
  });

  test('no float rounding: the numeric text keeps digits a number cannot', () => {
    const { numeric, float } = scaledQuantity(9_007_199_254_740_993n, 0, '1.1');
    expect(numeric).toBe('9907919180215092.3');
    expect(float).toBe(9907919180215092);
  });
});
