/**
 * When to try a failed delivery again. A schedule lists the wait before each retry, so a
 * delivery gets one initial attempt plus one retry per entry.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const UNIT_MS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR };
const DURATION = /^(\d+)(ms|s|m|h)?$/;

export const defaultRetrySchedule: readonly number[] = Object.freeze([0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);

/** Parses `0,5s,5m,30m,2h` (a bare number is milliseconds). */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === '') throw new Error('retry schedule is empty: expected durations like "0,5s,5m,2h"');
  return text.split(',').map((entry, index) => {
    const match = DURATION.exec(entry.trim());
    const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? 'ms']! : NaN;
    if (!Number.isSafeInteger(ms)) {
      throw new Error(
        `retry schedule entry ${index + 1} ("${entry.trim()}") in "${text}" is not a duration: expected milliseconds or a number with ms, s, m or h`,
      );
    }
    return ms;
  });
}

export interface NextAttemptInput {
  schedule: readonly number[];
  /** Attempts made so far, all failed; 1 after the initial attempt failed. */
  failedAttempts: number;
  /** What the receiver asked for in Retry-After, if anything. */
  retryAfterMs?: number;
}

/**
 * Milliseconds to wait before the next attempt, or undefined when retries are exhausted.
 * Retry-After can lengthen the wait but never shorten it, and never past the schedule's
 * longest entry: a receiver may slow us down, but cannot park a delivery indefinitely nor
 * earn itself extra attempts.
 */
export function nextAttemptDelay(input: NextAttemptInput): number | undefined {
  const { schedule, failedAttempts, retryAfterMs } = input;
  if (!Number.isSafeInteger(failedAttempts) || failedAttempts < 1) {
    throw new RangeError(`failedAttempts must be a positive integer, got ${failedAttempts}`);
  }
  const scheduled = schedule[failedAttempts - 1];
  if (scheduled === undefined) return undefined;
  if (retryAfterMs === undefined) return scheduled;
  return Math.max(scheduled, Math.min(retryAfterMs, Math.max(...schedule)));
}

// Day-name first keeps Date.parse's leniency ("-5" parses as 2001) out; the obsolete
// asctime form carries no zone and is ignored rather than read as local time.
const HTTP_DATE = /^[A-Za-z]{3,9}, .* GMT$/;
const DELTA_SECONDS = /^\d+$/;

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP-date; undefined if absent or unreadable. */
export function parseRetryAfter(headerValue: string | readonly string[] | undefined, now: Date): number | undefined {
  const value = (typeof headerValue === 'string' ? headerValue : headerValue?.[0])?.trim();
  if (!value) return undefined;
  if (DELTA_SECONDS.test(value)) return Number(value) * SECOND;
  if (!HTTP_DATE.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
