import type { KeyObject } from 'node:crypto';
import type { Logger } from '@wallet-api/core/logger';
import { nextAttemptDelay } from '../deliver/retry-schedule.js';
import { rsaSignatureHeaders, standardWebhookHeaders } from '../deliver/webhook-signature.js';
import type { WebhookPoster } from '../deliver/webhook-poster.js';
import type { AttemptOutcome, ClaimedDelivery, OutboxStore } from '../store/outbox-store.js';

/** The service's own signing identity for the incumbent-compatible RSA headers. */
export interface RsaSigning {
  privateKey: KeyObject;
  /** Where receivers fetch the public certificate (served by the gateway). */
  certificateUrl: string;
}

export interface DispatcherOptions {
  outbox: OutboxStore;
  poster: WebhookPoster;
  /** Opens the encrypted signing secrets the outbox hands out. */
  secrets: { open(ciphertext: string): string };
  rsa: RsaSigning;
  /** Wait before each retry (decisions.md: immediately, 5 s, 5 min, ... 10 h). */
  retrySchedule: readonly number[];
  /** How long a claimed delivery is held; longer than the post timeout, so only a crashed dispatcher's leases expire. */
  leaseMs: number;
  /** Deliveries in flight at once, across all receivers (each host is bounded by the poster). */
  concurrency: number;
  /** How often due deliveries are looked for when nothing wakes the dispatcher. */
  pollIntervalMs: number;
  logger: Logger;
  now?: () => Date;
  onAttempt?: (attempt: { outcome: AttemptOutcome['kind']; statusCode: number; latencyMs: number }) => void;
}

export interface Dispatcher {
  /** New or retried deliveries are due: look now instead of at the next poll. */
  wake(): void;
  /** Stops claiming, lets posts in flight finish (their attempts are recorded) and returns. */
  stop(): Promise<void>;
}

/** Retry-After counts on the statuses that mean "later" (decisions.md); elsewhere the schedule decides. */
const honoursRetryAfter = (status: number | undefined) => status === 429 || status === 503;

/**
 * Posts due deliveries from the outbox, signs each attempt with both schemes, and records every
 * attempt with its status and latency. Claims are leases: a dispatcher killed mid-post leaves its
 * deliveries to be claimed again when the lease ends, with the same webhook id and body.
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { outbox, poster, logger } = options;
  const now = options.now ?? (() => new Date());
  const inFlight = new Map<string, Promise<void>>();
  let running = true;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  function headersFor(delivery: ClaimedDelivery, sentAt: Date): Record<string, string> {
    const secrets = delivery.secretCiphertexts.map((ciphertext) => options.secrets.open(ciphertext));
    return {
      ...standardWebhookHeaders({ id: delivery.id, timestampSeconds: Math.floor(sentAt.getTime() / 1000), body: delivery.body, secrets }),
      ...rsaSignatureHeaders({ timestamp: sentAt, body: delivery.body, privateKey: options.rsa.privateKey, certificateUrl: options.rsa.certificateUrl }),
    };
  }

  async function send(delivery: ClaimedDelivery): Promise<void> {
    const number = delivery.attemptCount + 1;
    const startedAt = now();
    const result = await poster.post(delivery.callbackUrl, headersFor(delivery, startedAt), delivery.body);
    let outcome: AttemptOutcome;
    let statusCode = 0;
    let latencyMs = 0;
    let error = '';
    switch (result.kind) {
      case 'delivered':
        outcome = { kind: 'delivered' };
        statusCode = result.status;
        latencyMs = result.latencyMs;
        break;
      case 'gone':
        outcome = { kind: 'failed', disableSubscription: true };
        statusCode = result.status;
        latencyMs = result.latencyMs;
        error = 'the receiver answered 410 Gone: the subscription is disabled';
        break;
      case 'refused':
      case 'failed': {
        if (result.kind === 'failed') {
          statusCode = result.status ?? 0;
          latencyMs = result.latencyMs;
          error = result.error;
        } else error = result.reason;
        const retryAfterMs = result.kind === 'failed' && honoursRetryAfter(result.status) ? result.retryAfterMs : undefined;
        const delay = nextAttemptDelay({ schedule: options.retrySchedule, failedAttempts: number, retryAfterMs });
        outcome = delay === undefined ? { kind: 'failed', disableSubscription: false } : { kind: 'retry', nextAttemptAt: new Date(now().getTime() + delay) };
        break;
      }
    }
    await outbox.recordAttempt({ deliveryId: delivery.id, subscriptionId: delivery.subscriptionId, number, startedAt, statusCode, latencyMs, error, outcome });
    options.onAttempt?.({ outcome: outcome.kind, statusCode, latencyMs });
    if (outcome.kind !== 'delivered') {
      logger.info(
        { deliveryId: delivery.id, subscriptionId: delivery.subscriptionId, attempt: number, statusCode, latencyMs, error, outcome: outcome.kind },
        'webhook attempt failed',
      );
    }
    if (outcome.kind === 'retry' && outcome.nextAttemptAt.getTime() <= now().getTime()) wake();
  }

  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  function track(delivery: ClaimedDelivery): void {
    const work = send(delivery)
      .catch((error: unknown) =>
        logger.error({ err: error, deliveryId: delivery.id }, 'delivery attempt not recorded; its lease will expire and it is sent again'),
      )
      .finally(() => {
        inFlight.delete(delivery.id);
        wake();
      });
    inFlight.set(delivery.id, work);
  }

  async function loop(): Promise<void> {
    while (running) {
      woken = false;
      const room = options.concurrency - inFlight.size;
      let claimed = 0;
      if (room > 0) {
        try {
          const due = await outbox.claimDue(room, options.leaseMs, now());
          claimed = due.length;
          for (const delivery of due) track(delivery);
        } catch (error) {
          logger.error({ err: error }, 'claiming due deliveries failed; trying again');
        }
      }
      if (!running) break;
      if (claimed > 0 && claimed === room) continue;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollIntervalMs);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  }

  const looping = loop();
  return {
    wake,
    async stop() {
      running = false;
      wakeUp?.();
      await looping;
      await Promise.all(inFlight.values());
    },
  };
}
