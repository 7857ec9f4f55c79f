import { formatUnits } from '../units/format-units.js';
import { quantity, tokenQuantity } from './quantity.js';

describe('formatUnits and quantity', () => {
  test.each([
    ['1500000000000000000', 18, '1.5'],
    ['1', 18, '0.000000000000000001'],
    ['0', 6, '0'],
    ['2500000', 6, '2.5'],
    ['-1234', 2, '-12.34'],
    ['42', 0, '42'],
    [
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      18,
      '115792089237316195423570985008687907853269984665640564039457.584007913129639935',
    ],
  ])('%s with %i decimals is %s', (amount, decimals, numeric) => {
    expect(formatUnits(amount, decimals)).toBe(numeric);
    expect(quantity(amount, decimals)).toEqual({ int: amount, decimals, float: Number(numeric), numeric });
  });
});

describe('tokenQuantity', () => {
  const scaledUiAmount = { multiplier: '1', newMultiplier: '1.05', newMultiplierEffectiveTimestamp: '1000' };

  test('a ScaledUiAmount token keeps its raw int and shows int x multiplier in force / 10^decimals', () => {
    expect(tokenQuantity('2000000', { decimals: 6, scaledUiAmount }, 999)).toEqual({ int: '2000000', decimals: 6, float: 2, numeric: '2' });
    expect(tokenQuantity('2000000', { decimals: 6, scaledUiAmount }, 1000)).toEqual({ int: '2000000', decimals: 6, float: 2.1, numeric: '2.1' });
  });

  test('any other token is int / 10^decimals; an unknown one has no decimals', () => {
    expect(tokenQuantity('2000000', { decimals: 6, scaledUiAmount: undefined })).toEqual(quantity('2000000', 6));
    expect(tokenQuantity('7', undefined)).toEqual(quantity('7', 0));
  });
});
