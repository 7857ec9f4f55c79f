import { defaultRetrySchedule, nextAttemptDelay, parseRetryAfter, parseRetrySchedule } from './retry-schedule.js';

const s = 1_000;
const m = 60 * s;
const h = 60 * m;

describe('parseRetrySchedule', () => {
  it.each([
    { text: '0,5s,5m,30m,2h,5h,10h,10h', expected: [0, 5 * s, 5 * m, 30 * m, 2 * h, 5 * h, 10 * h, 10 * h] },
    { text: '100,250ms, 1s ,2m', expected: [100, 250, 1 * s, 2 * m] },
    { text: '0', expected: [0] },
  ])('parses "$text"', ({ text, expected }) => {
    expect(parseRetrySchedule(text)).toEqual(expected);
  });

  it.each([
    { text: '', error: /empty/ },
    { text: '   ', error: /empty/ },
    { text: '5s,,5m', error: /entry 2 \(""\)/ },
    { text: '5x', error: /entry 1 \("5x"\)/ },
    { text: '-5s', error: /entry 1/ },
    { text: '1.5s', error: /entry 1/ },
    { text: '5 s', error: /entry 1/ },
    { text: '5S', error: /entry 1/ },
    { text: '0,5s,1d', error: /entry 3 \("1d"\)/ },
    { text: '99999999999999999999h', error: /entry 1/ },
  ])('rejects "$text"', ({ text, error }) => {
    expect(() => parseRetrySchedule(text)).toThrow(error);
  });

  it('parses the documented default into defaultRetrySchedule', () => {
    expect(parseRetrySchedule('0,5s,5m,30m,2h,5h,10h,10h')).toEqual(defaultRetrySchedule);
  });
});

describe('nextAttemptDelay', () => {
  const schedule = [0, 5 * s, 5 * m];
  it.each([
    { name: 'after the initial attempt: first entry', failedAttempts: 1, retryAfterMs: undefined, expected: 0 },
    { name: 'after the first retry', failedAttempts: 2, retryAfterMs: undefined, expected: 5 * s },
    { name: 'last retry', failedAttempts: 3, retryAfterMs: undefined, expected: 5 * m },
    { name: 'exhausted: initial + one per entry', failedAttempts: 4, retryAfterMs: undefined, expected: undefined },
    { name: 'exhausted even with Retry-After', failedAttempts: 4, retryAfterMs: 10 * s, expected: undefined },
    { name: 'Retry-After longer than schedule wins', failedAttempts: 2, retryAfterMs: 60 * s, expected: 60 * s },
    { name: 'Retry-After shorter than schedule ignored', failedAttempts: 3, retryAfterMs: 1 * s, expected: 5 * m },
    { name: 'Retry-After capped at longest entry', failedAttempts: 1, retryAfterMs: 24 * h, expected: 5 * m },
    { name: 'Retry-After zero', failedAttempts: 2, retryAfterMs: 0, expected: 5 * s },
  ])('$name', ({ failedAttempts, retryAfterMs, expected }) => {
    expect(nextAttemptDelay({ schedule, failedAttempts, retryAfterMs })).toBe(expected);
  });

  it('gives the default schedule 1 + 8 attempts', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => nextAttemptDelay({ schedule: defaultRetrySchedule, failedAttempts: n }));
    expect(delays).toEqual([0, 5 * s, 5 * m, 30 * m, 2 * h, 5 * h, 10 * h, 10 * h, undefined]);
  });

  it.each([0, -1, 1.5])('rejects failedAttempts %p', (failedAttempts) => {
    expect(() => nextAttemptDelay({ schedule, failedAttempts })).toThrow(RangeError);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2015-10-21T07:28:00.000Z');
  it.each([
    { value: '120', expected: 120 * s },
    { value: ' 0 ', expected: 0 },
    { value: ['30', '60'], expected: 30 * s },
    { value: 'Wed, 21 Oct 2015 07:29:30 GMT', expected: 90 * s },
    { value: 'Wednesday, 21-Oct-15 07:29:30 GMT', expected: 90 * s },
    { value: 'Wed, 21 Oct 2015 07:00:00 GMT', expected: 0 },
    { value: undefined, expected: undefined },
    { value: '', expected: undefined },
    { value: '-5', expected: undefined },
    { value: '1.5', expected: undefined },
    { value: '2024', expected: 2024 * s },
    { value: 'soon', expected: undefined },
    { value: 'Wed Oct 21 07:29:30 2015', expected: undefined },
    { value: 'Wed, 99 Oct 2015 07:29:30 GMT', expected: undefined },
  ])('$value -> $expected', ({ value, expected }) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
