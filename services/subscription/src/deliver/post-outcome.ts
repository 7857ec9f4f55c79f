import { parseRetryAfter } from './retry-schedule.js';

/** What one delivery attempt came to, as the delivery loop needs it. */
export type PostOutcome =
  | { kind: 'delivered'; status: number; latencyMs: number; responseBody: string }
  | { kind: 'failed'; status?: number; latencyMs: number; retryAfterMs?: number; error: string; responseBody?: string }
  /** The receiver said 410 Gone: the subscription should be disabled. */
  | { kind: 'gone'; status: 410; latencyMs: number; responseBody: string }
  /** The callback URL no longer passes the guard (e.g. its name now resolves to a private address). */
  | { kind: 'refused'; reason: string };

export interface HttpResponseSummary {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  responseBody: string;
  latencyMs: number;
}

// Only these statuses promise that waiting helps; elsewhere Retry-After is not ours to honour.
const RETRY_AFTER_STATUSES = new Set([429, 503]);

export function outcomeOfResponse(response: HttpResponseSummary, now: Date): PostOutcome {
  const { status, headers, responseBody, latencyMs } = response;
  if (status >= 200 && status < 300) return { kind: 'delivered', status, latencyMs, responseBody };
  if (status === 410) return { kind: 'gone', status, latencyMs, responseBody };
  const error = status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}`;
  const retryAfterMs = RETRY_AFTER_STATUSES.has(status) ? parseRetryAfter(headers['retry-after'], now) : undefined;
  return { kind: 'failed', status, latencyMs, error, responseBody, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

/** One line for the delivery log, keeping the system error code (ECONNREFUSED) where there is one. */
export function describeNetworkError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeNetworkError).join('; ');
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message || error.name;
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
