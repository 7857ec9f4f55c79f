export interface RetryPolicy {
  /** Attempts per request before the follower abandons the round and starts it over. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

/** Delay before retry number `attempt` (0 for the first retry): doubling, capped. */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/** Runs `request` until it succeeds or `policy.attempts` attempts failed; `onRetry` hears of each failure that is retried. */
export async function withRetry<T>(request: () => Promise<T>, policy: RetryPolicy, onRetry?: (error: unknown) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt + 1 >= policy.attempts) throw error;
      onRetry?.(error);
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, policy)));
    }
  }
}
