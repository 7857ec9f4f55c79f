import { backoffDelay, withRetry } from './backoff.js';

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

describe('withRetry', () => {
  const policy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 };

  test('answers the first success and tells of each failure before it', async () => {
    const failures: unknown[] = [];
    let attempts = 0;
    const answer = await withRetry(
      async () => (++attempts < 3 ? Promise.reject(new Error(`attempt ${attempts}`)) : 'done'),
      policy,
      (error) => failures.push((error as Error).message),
    );
    expect(answer).toBe('done');
    expect(failures).toEqual(['attempt 1', 'attempt 2']);
  });

  test("gives up with the last failure after the policy's attempts", async () => {
    let attempts = 0;
    await expect(withRetry(async () => Promise.reject(new Error(`attempt ${++attempts}`)), policy)).rejects.toThrow('attempt 3');
    expect(attempts).toBe(3);
  });
});
