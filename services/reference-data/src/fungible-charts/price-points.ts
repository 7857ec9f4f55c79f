import type { ChartWindow } from '@wallet-api/core/charts';

/** A point of a price chart: unix seconds and the price then. */
export interface PricePoint {
  timestamp: number;
  price: number;
}

/** Every point time of the window, oldest first: beginAt, then one interval after another through endAt. */
export function pointTimes(window: ChartWindow): number[] {
  const count = Math.floor((window.endAt - window.beginAt) / window.intervalSeconds) + 1;
  return Array.from({ length: count }, (_, index) => window.beginAt + index * window.intervalSeconds);
}

/** The window's points that have a price, oldest first: a point before the first price (or while there was none) is left out. */
export function pricedPoints(window: ChartWindow, prices: ReadonlyMap<number, number | undefined>): PricePoint[] {
  return pointTimes(window).flatMap((timestamp) => {
    const price = prices.get(timestamp);
    return price === undefined || !Number.isFinite(price) ? [] : [{ timestamp, price }];
  });
}
