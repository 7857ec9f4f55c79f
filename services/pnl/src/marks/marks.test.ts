import { BeyondMarkAllowance, checkMarkAllowance, markAllowance, marks } from './marks.js';

const now = Date.UTC(2026, 2, 31, 12) / 1000;

test('the marks: now, a day, a week, a calendar month and year ago, and the start of the year', () => {
  expect(marks(now).map((mark) => new Date(mark * 1000).toISOString())).toEqual([
    '2026-03-31T12:00:00.000Z',
    '2026-03-30T12:00:00.000Z',
    '2026-03-24T12:00:00.000Z',
    // March 31 less a month is February 31, which Date carries into March 3.
    '2026-03-03T12:00:00.000Z',
    '2025-03-31T12:00:00.000Z',
    '2026-01-01T00:00:00.000Z',
  ]);
});

test('a value is allowed while fewer than 3,000 transactions separate it from the nearest mark', () => {
  // One transaction per second over the last day.
  const first = now - 86_400 + 1;
  const between = (a: number, b: number) => Math.max(0, Math.min(Math.max(a, b) - 1, now) - Math.max(Math.min(a, b) + 1, first) + 1);
  expect(() => checkMarkAllowance('since', now - markAllowance, now, between)).not.toThrow();
  expect(() => checkMarkAllowance('since', now - 86_400 + markAllowance, now, between)).not.toThrow();
  expect(() => checkMarkAllowance('till', now - markAllowance - 1, now, between)).toThrow(BeyondMarkAllowance);
  expect(() => checkMarkAllowance('till', now - markAllowance - 1, now, between)).toThrow('till lies 3,000 transactions from the nearest mark');
  // Far from every mark, but with no transactions near it.
  expect(() => checkMarkAllowance('since', now - 200 * 86_400, now, between)).not.toThrow();
});
