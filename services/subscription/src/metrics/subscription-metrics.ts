import { Counter, Gauge, Histogram, type Registry } from '@wallet-api/core/metrics';

export interface SubscriptionMetrics {
  /** Deliveries written to the outbox, by kind (transaction, rollback). */
  deliveriesRecorded: Counter<'kind'>;
  /** Webhook posts, by outcome (delivered, retry, failed) and HTTP status (0: no answer). */
  attempts: Counter<'outcome' | 'status'>;
  attemptSeconds: Histogram<'outcome'>;
  indexedWallets: Gauge;
  indexedSubscriptions: Gauge;
}

export function createSubscriptionMetrics(registry: Registry): SubscriptionMetrics {
  const registers = [registry];
  return {
    deliveriesRecorded: new Counter({
      name: 'subscription_deliveries_recorded_total',
      help: 'Deliveries written to the outbox',
      labelNames: ['kind'],
      registers,
    }),
    attempts: new Counter({
      name: 'subscription_webhook_attempts_total',
      help: 'Webhook posts and what came of them',
      labelNames: ['outcome', 'status'],
      registers,
    }),
    attemptSeconds: new Histogram({
      name: 'subscription_webhook_attempt_seconds',
      help: 'Duration of one webhook post, from the callback URL check to the reply',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers,
    }),
    indexedWallets: new Gauge({ name: 'subscription_index_wallets', help: 'Subscribed (subscription, wallet) pairs in the matcher index', registers }),
    indexedSubscriptions: new Gauge({ name: 'subscription_index_subscriptions', help: 'Subscriptions in the matcher index', registers }),
  };
}
