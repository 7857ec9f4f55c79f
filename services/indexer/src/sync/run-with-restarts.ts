import type { Logger } from '@wallet-api/core/logger';
import { backoffDelay, defaultRetryPolicy } from './backoff.js';

export interface RestartPolicy {
  logger: Logger;
  /** Logged with each failure, e.g. `chain indexer failed; restarting from the checkpoint`. */
  message: string;
  /** Failures that say the configuration is wrong: logged at error level every time (the retry will not help). */
  isFatal(error: unknown): boolean;
  onRestart(): void;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Runs `runOnce` until `signal` aborts or it returns, again after each failure with growing backoff. */
export async function runWithRestarts(signal: AbortSignal, policy: RestartPolicy, runOnce: (signal: AbortSignal) => Promise<void>): Promise<void> {
  for (let failures = 0; !signal.aborted; failures++) {
    try {
      await runOnce(signal);
      return;
    } catch (error) {
      if (signal.aborted) return;
      policy.logger[policy.isFatal(error) ? 'error' : 'warn']({ err: error }, policy.message);
      policy.onRestart();
      await abortableSleep(backoffDelay(Math.min(failures, 6), defaultRetryPolicy), signal);
    }
  }
}
