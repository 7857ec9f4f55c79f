import { chartEpoch, chartPeriods, chartWindow, fixedPeriods } from './chart-window.js';

const day = 86_400;
const now = 1_764_201_234; // 2025-11-26T23:53:54Z

describe('chartWindow', () => {
  it.each(Object.entries(fixedPeriods))('%s: aligned ends, a whole window, 290 to 460 points', (period, { intervalSeconds, windowSeconds }) => {
    const window = chartWindow(period as keyof typeof fixedPeriods, now);
    expect(window.intervalSeconds).toBe(intervalSeconds);
    expect(window.endAt % intervalSeconds).toBe(0);
    expect(window.beginAt % intervalSeconds).toBe(0);
    expect(window.endAt).toBeLessThanOrEqual(now);
    expect(now - window.endAt).toBeLessThan(intervalSeconds);
    expect(window.endAt - window.beginAt).toBeGreaterThanOrEqual(windowSeconds);
    expect(window.endAt - window.beginAt - windowSeconds).toBeLessThan(intervalSeconds);
    const points = (window.endAt - window.beginAt) / intervalSeconds + 1;
    expect(points).toBeGreaterThanOrEqual(289);
    expect(points).toBeLessThanOrEqual(460);
  });

  it('hour: 361 points ten seconds apart', () => {
    expect(chartWindow('hour', 1_000_005)).toEqual({ beginAt: 996_400, endAt: 1_000_000, intervalSeconds: 10 });
  });

  it('max: whole days over the history, at least one day', () => {
    expect(chartWindow('max', now)).toEqual({ beginAt: Math.floor(now / day) * day - day, endAt: Math.floor(now / day) * day, intervalSeconds: day });
    expect(chartWindow('max', now, now - 3_600).intervalSeconds).toBe(day);
    const ninetyDays = chartWindow('max', now, now - 90 * day);
    expect(ninetyDays.intervalSeconds).toBe(day);
    expect(ninetyDays.beginAt).toBeLessThanOrEqual(now - 90 * day);
    const tenYears = chartWindow('max', now, now - 3_650 * day);
    expect(tenYears.intervalSeconds).toBe(10 * day);
    expect(tenYears.beginAt).toBeLessThanOrEqual(now - 3_650 * day);
    expect((tenYears.endAt - tenYears.beginAt) / tenYears.intervalSeconds + 1).toBeLessThanOrEqual(402);
  });

  it('epochs change exactly when the points move', () => {
    for (const period of chartPeriods) {
      const first = now - 700 * day;
      for (const at of [now, now + 7, now + 299, now + 3_601, now + day + 1]) {
        const sameEpoch = chartEpoch(period, at) === chartEpoch(period, now);
        const samePoints = chartWindow(period, at, first).endAt === chartWindow(period, now, first).endAt;
        if (sameEpoch) expect(samePoints).toBe(true);
      }
    }
  });
});
