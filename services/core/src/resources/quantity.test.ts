import { formatUnits, quantity } from './quantity.js';

describe('formatUnits and quantity', () => {
  test.each([
    ['1500000000000000000', 18, '1.5'],
    ['1', 18, '0.000000000000000001'],
    ['0', 6, '0'],
    ['2500000', 6, '2.5'],
    ['-1234', 2, '-12.34'],
    ['42', 0, '42'],
    ['115792089237316195423570985008687907853269984665640564039457584007913129639935', 18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935'],
  ])('%s with %i decimals is %s', (amount, decimals, numeric) => {
    expect(formatUnits(amount, decimals)).toBe(numeric);
    expect(quantity(amount, decimals)).toEqual({ int: amount, decimals, float: Number(numeric), numeric });
  });
});
