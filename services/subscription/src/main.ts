import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { databaseEnv, kafkaEnv, parseEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { consumerGroup, createKafka, platformTopics, startConsumer } from '@wallet-api/core/kafka';
import { createCallbackUrlGuard, parseAllowList } from '@wallet-api/core/outbound';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createFungibleDirectory } from '@wallet-api/core/resources';
import { runGrpcService } from '@wallet-api/core/service';
import { startInBackground } from './consume/background-consumer.js';
import { createRollbackMatcher } from './consume/rollback-matcher.js';
import { createTransactionMatcher } from './consume/transaction-matcher.js';
import { defaultRetrySchedule, parseRetrySchedule } from './deliver/retry-schedule.js';
import { createWebhookPoster } from './deliver/webhook-poster.js';
import { loadRsaSigningKey } from './deliver/webhook-signature.js';
import { startDispatcher } from './dispatch/dispatcher.js';
import { subscriptionService } from './grpc/subscription-service.js';
import { parseSubscriptionConfig } from './grpc/subscription-config.js';
import { createChainGate } from './match/chain-gate.js';
import { createIndexSync } from './match/index-sync.js';
import { createSmartWalletCheck } from './match/smart-wallets.js';
import { createSubscriptionIndex } from './match/subscription-index.js';
import { createSubscriptionMetrics } from './metrics/subscription-metrics.js';
import { createTransactionRenderer } from './render/transaction-renderer.js';
import { createSecretBox } from './secrets/secret-box.js';
import { createDeliveryLogStore } from './store/delivery-log-store.js';
import { createOutboxStore } from './store/outbox-store.js';
import { createSubscriptionStore } from './store/subscription-store.js';

const env = serviceAddressEnv
  .extend(kafkaEnv.shape)
  .extend(databaseEnv.shape)
  .extend({
    PUBLIC_URL: z.url().default('http://127.0.0.1:8080'),
    // The RSA key of the incumbent-compatible X-Signature; its certificate is served by the gateway.
    WEBHOOK_SIGNING_KEY_FILE: z.string().min(1),
    WEBHOOK_CERTIFICATE_URL: z.url().optional(),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    WEBHOOK_RETRY_SCHEDULE: z.string().optional(),
    WEBHOOK_MAX_CONNECTIONS_PER_HOST: z.coerce.number().int().positive().default(8),
    WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().default(64),
    WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(250),
    // Only a dispatcher that died holds a lease this long: it must outlast the post timeout.
    WEBHOOK_LEASE_MS: z.coerce.number().int().positive().default(60_000),
    SUBSCRIPTION_MATCHER_GROUP: z.string().default('subscription.matcher'),
  });

await runGrpcService('subscription', parseEnv(serviceAddressEnv).SUBSCRIPTION_GRPC_PORT, async ({ logger, metrics: registry }) => {
  const config = parseEnv(env);
  const subscriptionConfig = parseSubscriptionConfig();
  if (config.WEBHOOK_LEASE_MS <= config.WEBHOOK_TIMEOUT_MS) {
    throw new Error('WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS, or a slow post would be sent twice at once');
  }
  const metrics = createSubscriptionMetrics(registry);
  const secrets = createSecretBox(subscriptionConfig.secretKey);
  const guard = createCallbackUrlGuard({ allow: parseAllowList(subscriptionConfig.callbackAllowList, 'callback allow-list') });
  const prisma = createPrisma(config.DATABASE_URL, logger);
  const referenceData = createGrpcClient(ReferenceDataClient, config.REFERENCE_DATA_GRPC_ADDRESS);
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID ?? 'subscription',
    logger,
    consumerSessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  });
  const store = createSubscriptionStore(prisma);
  const outbox = createOutboxStore(prisma);

  const index = createSubscriptionIndex();
  const indexSync = createIndexSync({ source: store, index, logger });
  await indexSync.load();
  const countIndex = () => {
    metrics.indexedWallets.set(index.walletCount);
    metrics.indexedSubscriptions.set(index.subscriptionCount);
  };
  countIndex();
  const chains = createChainGate(referenceData);

  const poster = createWebhookPoster({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, maxConnectionsPerHost: config.WEBHOOK_MAX_CONNECTIONS_PER_HOST, guard });
  const dispatcher = startDispatcher({
    outbox,
    poster,
    secrets,
    rsa: {
      privateKey: loadRsaSigningKey(readFileSync(config.WEBHOOK_SIGNING_KEY_FILE, 'utf8')),
      certificateUrl: config.WEBHOOK_CERTIFICATE_URL ?? new URL('/v1/webhooks/certificate.pem', config.PUBLIC_URL).toString(),
    },
    retrySchedule: config.WEBHOOK_RETRY_SCHEDULE ? parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE) : defaultRetrySchedule,
    leaseMs: config.WEBHOOK_LEASE_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
    logger,
    onAttempt: ({ outcome, statusCode, latencyMs }) => {
      metrics.attempts.inc({ outcome, status: String(statusCode) });
      metrics.attemptSeconds.observe({ outcome }, latencyMs / 1000);
    },
  });

  const groupId = consumerGroup(config.SUBSCRIPTION_MATCHER_GROUP, config.KAFKA_TOPIC_SUFFIX);
  const topics = platformTopics(config.KAFKA_TOPIC_SUFFIX);
  const transactionConsumer = startInBackground(
    'transaction matcher',
    () =>
      startConsumer(kafka, {
        groupId,
        topic: topics.walletTransactions,
        logger,
        handleBatch: createTransactionMatcher({
          groupId,
          outbox,
          index,
          refreshIndex: async () => {
            await chains.ready();
            await indexSync.refresh();
            countIndex();
          },
          eligibleChains: chains.eligible,
          isSmartWallet: createSmartWalletCheck(referenceData),
          renderer: createTransactionRenderer({
            referenceData,
            fungibles: createFungibleDirectory(referenceData, { ttlMs: 15_000 }),
            publicUrl: config.PUBLIC_URL,
          }),
          logger,
          onDeliveries: (count) => {
            metrics.deliveriesRecorded.inc({ kind: 'transaction' }, count);
            dispatcher.wake();
          },
        }),
      }),
    logger,
  );
  // Rollbacks have their own group: one consumer group per topic keeps each topic's offsets apart.
  const rollbackConsumer = startInBackground(
    'rollback matcher',
    () =>
      startConsumer(kafka, {
        groupId: `${groupId}.rollbacks`,
        topic: topics.chainRollbacks,
        logger,
        handleBatch: createRollbackMatcher({
          groupId: `${groupId}.rollbacks`,
          outbox,
          logger,
          onDeliveries: (count) => {
            metrics.deliveriesRecorded.inc({ kind: 'rollback' }, count);
            dispatcher.wake();
          },
        }),
      }),
    logger,
  );

  return {
    services: [
      subscriptionService({
        store,
        deliveries: createDeliveryLogStore(prisma),
        callbackUrls: guard,
        secrets,
        rotationOverlapMs: subscriptionConfig.secretOverlapMs,
        onChange: () =>
          void indexSync
            .refresh()
            .then(countIndex)
            .catch((error: unknown) => logger.warn({ err: error }, 'subscription index refresh failed')),
        onRetry: dispatcher.wake,
      }),
    ],
    closers: [
      // Together: each waits out its fetch in flight (up to kafkajs' 5 s), one after the other would double it.
      { name: 'matchers', close: async () => void (await Promise.all([transactionConsumer.stop(), rollbackConsumer.stop()])) },
      { name: 'dispatcher', close: () => dispatcher.stop() },
      { name: 'webhook poster', close: () => poster.close() },
      { name: 'postgres', close: () => prisma.$disconnect() },
      { name: 'reference-data client', close: async () => referenceData.close() },
    ],
  };
});
