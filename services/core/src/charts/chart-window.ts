/** Spec 4.1's `chart_period` values. */
export const chartPeriods = ['hour', 'day', 'week', 'month', '3months', '6months', 'year', '5years', 'max'] as const;
export type ChartPeriod = (typeof chartPeriods)[number];

const minute = 60;
const hour = 60 * minute;
const day = 24 * hour;

/** Spec 4.1's table: each fixed period's point interval and window, in seconds. */
export const fixedPeriods: Readonly<Record<Exclude<ChartPeriod, 'max'>, { intervalSeconds: number; windowSeconds: number }>> = {
  hour: { intervalSeconds: 10, windowSeconds: hour },
  day: { intervalSeconds: 5 * minute, windowSeconds: day },
  week: { intervalSeconds: 30 * minute, windowSeconds: 7 * day },
  month: { intervalSeconds: 2 * hour, windowSeconds: 30 * day },
  '3months': { intervalSeconds: 6 * hour, windowSeconds: 90 * day },
  '6months': { intervalSeconds: 12 * hour, windowSeconds: 180 * day },
  year: { intervalSeconds: day, windowSeconds: 365 * day },
  '5years': { intervalSeconds: 4 * day, windowSeconds: 5 * 365 * day },
};

/** `max` aims at about this many intervals over the wallet's history... */
const maxPoints = 400;
/** ...with intervals of whole days, at least one (spec 4.1: "at least 1 day for wallet charts"). */
const maxIntervalUnit = day;

export interface ChartWindow {
  /** Unix seconds of the first and last points, multiples of the interval. */
  beginAt: number;
  endAt: number;
  intervalSeconds: number;
}

export const isChartPeriod = (value: string): value is ChartPeriod => (chartPeriods as readonly string[]).includes(value);

/**
 * The points a chart of `period` has at `nowSeconds`: the last is the newest multiple of the
 * interval not after now, the first the one a whole window before it (rounded out to the
 * interval). `max` spans the wallet's history from `firstActivitySeconds` (a day when there is
 * none) in about 400 intervals of whole days.
 */
export function chartWindow(period: ChartPeriod, nowSeconds: number, firstActivitySeconds?: number): ChartWindow {
  let intervalSeconds: number;
  let windowSeconds: number;
  if (period === 'max') {
    windowSeconds = Math.max(day, firstActivitySeconds === undefined ? 0 : nowSeconds - firstActivitySeconds);
    intervalSeconds = Math.max(1, Math.ceil(windowSeconds / maxPoints / maxIntervalUnit)) * maxIntervalUnit;
  } else {
    ({ intervalSeconds, windowSeconds } = fixedPeriods[period]);
  }
  const endAt = Math.floor(nowSeconds / intervalSeconds) * intervalSeconds;
  const beginAt = endAt - Math.ceil(windowSeconds / intervalSeconds) * intervalSeconds;
  return { beginAt, endAt, intervalSeconds };
}

/**
 * A number that changes whenever a chart of `period` could move to new points: the answer for
 * one value stays the same points (their values still change with the wallet's data and prices).
 * `max`'s intervals are whole days, so its points move at most once a day.
 */
export function chartEpoch(period: ChartPeriod, nowSeconds: number): number {
  const step = period === 'max' ? maxIntervalUnit : fixedPeriods[period].intervalSeconds;
  return Math.floor(nowSeconds / step);
}
