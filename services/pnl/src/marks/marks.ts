/** Spec 4.2 rule 2: `since`/`till` values further than this many transactions from every mark are refused. */
export const markAllowance = 3_000;

/**
 * Spec 4.2 rule 2's marks at `now` (unix seconds): now, 1 day, 1 week, 1 month and 1 year ago
 * (calendar month and year, UTC), and the start of the year (UTC).
 */
export function marks(now: number): number[] {
  const date = new Date(now * 1000);
  const monthAgo = new Date(date);
  monthAgo.setUTCMonth(monthAgo.getUTCMonth() - 1);
  const yearAgo = new Date(date);
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  return [
    now,
    now - 86_400,
    now - 7 * 86_400,
    Math.floor(monthAgo.getTime() / 1000),
    Math.floor(yearAgo.getTime() / 1000),
    Date.UTC(date.getUTCFullYear(), 0, 1) / 1000,
  ];
}

/** A `since`/`till` too far from every mark. */
export class BeyondMarkAllowance extends Error {
  constructor(
    readonly parameter: 'since' | 'till',
    readonly transactions: number,
  ) {
    super(
      `${parameter} lies ${transactions.toLocaleString('en-US')} transactions from the nearest mark (now, 1 day, 1 week, 1 month, 1 year ago, start of the year); at most ${(markAllowance - 1).toLocaleString('en-US')} are allowed`,
    );
    this.name = 'BeyondMarkAllowance';
  }
}

/**
 * Refuses a `since`/`till` (unix seconds) with `markAllowance` or more transactions between it
 * and the nearest mark, nearest counted in transactions; `between(a, b)` counts the wallets'
 * transactions strictly between two times.
 */
export function checkMarkAllowance(parameter: 'since' | 'till', value: number, now: number, between: (a: number, b: number) => number): void {
  const nearest = Math.min(...marks(now).map((mark) => between(value, mark)));
  if (nearest >= markAllowance) throw new BeyondMarkAllowance(parameter, nearest);
}
