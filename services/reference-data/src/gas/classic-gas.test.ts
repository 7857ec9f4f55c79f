import { classicFromGasPrices, nearestRank } from './classic-gas.js';

describe('nearestRank', () => {
  const ten = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n];
  test.each([
    [10, 1n],
    [30, 3n],
    [60, 6n],
    [90, 9n],
    [100, 10n],
    [0, 1n],
  ])('percentile %i of 1..10 is %s', (percentile, expected) => {
    expect(nearestRank(ten, percentile)).toBe(expected);
  });
});

describe('classicFromGasPrices', () => {
  test('speeds are the 10th, 30th, 60th and 90th percentiles of what transactions paid, in any order', () => {
    expect(classicFromGasPrices([50n, 10n, 40n, 20n, 30n], 999n)).toEqual({ type: 'classic', prices: { slow: 10n, standard: 20n, fast: 30n, rapid: 50n } });
  });

  test("no transactions: the node's gas price for every speed", () => {
    expect(classicFromGasPrices([], 7n)).toEqual({ type: 'classic', prices: { slow: 7n, standard: 7n, fast: 7n, rapid: 7n } });
  });
});
