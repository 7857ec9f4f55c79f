import { Agent, request, type Dispatcher } from 'undici';
import { createAddressPins, untilAborted, type CallbackUrlGuard } from '@wallet-api/core/outbound';
import { createHostLimiter } from './host-limiter.js';
import { describeNetworkError, outcomeOfResponse, type PostOutcome } from './post-outcome.js';

/**
 * Sends one signed webhook and reports what came of it; never throws for anything the
 * network or the receiver does. The URL is re-checked on every post and the connection goes
 * only to the addresses that check approved.
 */
export interface WebhookPoster {
  post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<PostOutcome>;
  close(): Promise<void>;
}

export interface WebhookPosterOptions {
  /** Deadline for one attempt: resolving, connecting, sending and reading the response. */
  timeoutMs?: number;
  /** Posts in flight per callback host; more wait their turn before their deadline starts. */
  maxConnectionsPerHost: number;
  guard: CallbackUrlGuard;
}

const KEPT_RESPONSE_BYTES = 1024;
// Reading a short reply to the end lets the connection be reused; past this it costs more than a new one.
const DRAINED_RESPONSE_BYTES = 64 * 1024;

export function createWebhookPoster({ timeoutMs = 15_000, maxConnectionsPerHost, guard }: WebhookPosterOptions): WebhookPoster {
  const pins = createAddressPins();
  const limiter = createHostLimiter(maxConnectionsPerHost);
  const agent = new Agent({ connections: maxConnectionsPerHost, connect: { lookup: pins.lookup } });

  async function attempt(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<PostOutcome> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const check = await untilAborted(guard.check(url), signal);
      if (!check.ok) {
        return check.retryable ? { kind: 'failed', latencyMs: latencyMs(), error: check.reason } : { kind: 'refused', reason: check.reason };
      }
      const release = pins.pin(check.url.hostname, check.addresses);
      try {
        const response = await request(check.url, {
          dispatcher: agent,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'wallet-api-webhooks/1' },
          body,
          signal,
        });
        const responseBody = await readExcerpt(response.body);
        return outcomeOfResponse({ status: response.statusCode, headers: response.headers, responseBody, latencyMs: latencyMs() }, new Date());
      } finally {
        release();
      }
    } catch (error) {
      const message = signal.aborted ? `timed out after ${timeoutMs} ms` : describeNetworkError(error);
      return { kind: 'failed', latencyMs: latencyMs(), error: message };
    }
  }

  return {
    post: (url, headers, body) => limiter.run(hostOf(url), () => attempt(url, headers, body)),
    close: () => agent.close(),
  };
}

/** The limiter's key; an unparseable URL gets its own, and the guard then refuses it. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/**
 * The first bytes of the reply, for the delivery log. Once the status is known the body cannot
 * change the outcome, so a body cut short by the deadline or the peer is simply kept as read.
 */
async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let readBytes = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      readBytes += chunk.length;
      if (keptBytes < KEPT_RESPONSE_BYTES) {
        const part = chunk.subarray(0, KEPT_RESPONSE_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      if (readBytes > DRAINED_RESPONSE_BYTES) break;
    }
  } catch {
    // Deliberately ignored, as above.
  }
  return Buffer.concat(kept).toString('utf8');
}
