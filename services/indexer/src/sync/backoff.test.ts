import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1_000 };
  test.each([
    { attempt: 0, expected: 100 },
    { attempt: 1, expected: 200 },
    { attempt: 3, expected: 800 },
    { attempt: 4, expected: 1_000 },
    { attempt: 50, expected: 1_000 },
  ])('retry $attempt waits $expected ms', ({ attempt, expected }) => {
    expect(backoffDelay(attempt, policy)).toBe(expected);
  });
});
