import { chartWindow } from '@wallet-api/core/charts';
import { pointTimes, pricedPoints } from './price-points.js';

describe('pointTimes', () => {
  it.each([
    [{ beginAt: 100, endAt: 100, intervalSeconds: 10 }, [100]],
    [{ beginAt: 100, endAt: 130, intervalSeconds: 10 }, [100, 110, 120, 130]],
  ])('%j: every interval from begin to end', (window, times) => {
    expect(pointTimes(window)).toEqual(times);
  });

  it("a period's window gives its points on the interval's grid", () => {
    const window = chartWindow('day', 1_764_201_234);
    const times = pointTimes(window);
    expect(times).toHaveLength(289);
    expect(times[0]).toBe(window.beginAt);
    expect(times.at(-1)).toBe(window.endAt);
    expect(times.every((time) => time % 300 === 0)).toBe(true);
  });
});

describe('pricedPoints', () => {
  it('leaves out points without a price (none yet, or not finite) and keeps the order', () => {
    const window = { beginAt: 0, endAt: 40, intervalSeconds: 10 };
    const prices = new Map<number, number | undefined>([
      [0, undefined],
      [10, 2],
      [20, Number.NaN],
      [30, 0],
    ]);
    expect(pricedPoints(window, prices)).toEqual([
      { timestamp: 10, price: 2 },
      { timestamp: 30, price: 0 },
    ]);
  });
});
