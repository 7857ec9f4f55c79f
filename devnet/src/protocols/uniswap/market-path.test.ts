import { createMarketPath, referencePrice } from './market-path.js';

const start = 1_700_000_000;
const day = 86_400;
const assets = [
  { symbol: 'WETH', startUsd: 3000, dailyVolatility: 0.035 },
  { symbol: 'USDC', startUsd: 1, dailyVolatility: 0 },
];

describe('market path', () => {
  test('depends on the seed and the symbol only', () => {
    const path = createMarketPath('seed', start, 30, assets);
    expect(createMarketPath('seed', start, 30, [...assets].reverse()).assets.find((asset) => asset.symbol === 'WETH')).toEqual(path.assets[0]);
    expect(createMarketPath('other', start, 30, assets).assets[0]!.daily).not.toEqual(path.assets[0]!.daily);
  });

  test('starts at the start price, holds pegged assets, interpolates between days', () => {
    const path = createMarketPath('seed', start, 30, assets);
    expect(referencePrice(path, 'WETH', start)).toBe(3000);
    expect(referencePrice(path, 'WETH', start - day)).toBe(3000);
    expect(referencePrice(path, 'USDC', start + 17.5 * day)).toBe(1);
    const [day3, day4] = [path.assets[0]!.daily[3]!, path.assets[0]!.daily[4]!];
    expect(referencePrice(path, 'WETH', start + 3 * day)).toBeCloseTo(day3, 9);
    expect(referencePrice(path, 'WETH', start + 3.5 * day)).toBeCloseTo(Math.sqrt(day3 * day4), 9);
    expect(referencePrice(path, 'GOV', start)).toBeUndefined();
  });

  test('goes on past the recorded days as a longer path would have', () => {
    const short = createMarketPath('seed', start, 10, assets);
    const long = createMarketPath('seed', start, 40, assets);
    expect(referencePrice(short, 'WETH', start + 35.25 * day)).toBeCloseTo(referencePrice(long, 'WETH', start + 35.25 * day)!, 9);
  });
});
