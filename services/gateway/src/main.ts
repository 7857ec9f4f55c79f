import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { createChangeVersions } from '@wallet-api/core/cache';
import { baseEnv, databaseEnv, metricsPort, parseEnv, redisEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createPrisma } from '@wallet-api/core/db';
import { createLogger } from '@wallet-api/core/logger';
import { startMetricsServer } from '@wallet-api/core/metrics';
import { startTelemetry } from '@wallet-api/core/telemetry';
import { createApp } from './app.js';
import { findOrganizationByKey } from './auth/api-keys.js';
import { cachedLookup } from './auth/authenticate.js';
import { followKeyRevocations } from './auth/key-revocations.js';
import { createResponseCache } from './cache/response-cache.js';
import { createPositionRows } from './cache/position-rows.js';
import { createTransactionPages } from './cache/transaction-pages.js';
import { createBackends } from './grpc/backends.js';
import { createLocalFacilitator } from './payments/local-facilitator.js';
import { createLocalSvmFacilitator } from './payments/local-svm-facilitator.js';
import { paymentConfigFromEnv, paymentEnv } from './payments/payment-config.js';

const env = baseEnv
  .extend(databaseEnv.shape)
  .extend(redisEnv.shape)
  .extend(serviceAddressEnv.shape)
  .extend(paymentEnv.shape)
  .extend({
    HTTP_HOST: z.string().default('127.0.0.1'),
    HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    PUBLIC_URL: z.url().default('http://127.0.0.1:8080'),
    RATE_LIMIT_PER_SECOND: z.coerce.number().int().positive().default(10),
    RATE_LIMIT_BURST: z.coerce.number().int().positive().default(20),
    // fungible_info's market data is reused this long (GetFungibles reads price history and supplies per token).
    GATEWAY_FUNGIBLES_TTL_MS: z.coerce.number().int().min(0).default(15_000),
    // Memory for cached wallet answers, and the longest any is kept (see cache/response-cache.ts); 0 MiB: no cache.
    RESPONSE_CACHE_MAX_MB: z.coerce.number().int().min(0).default(256),
    RESPONSE_CACHE_MAX_AGE_MS: z.coerce.number().int().positive().default(60_000),
    // The public certificate of the webhooks' X-Signature scheme, served at /v1/webhooks/certificate.pem.
    WEBHOOK_CERTIFICATE_FILE: z.string().min(1).optional(),
  });

const config = parseEnv(env);
const logger = createLogger('gateway', config.LOG_LEVEL);
let paymentConfig: ReturnType<typeof paymentConfigFromEnv>;
try {
  paymentConfig = paymentConfigFromEnv(config);
} catch (error) {
  logger.fatal({ err: error }, 'invalid pay-per-request configuration');
  process.exit(1);
}
const telemetry = startTelemetry({ serviceName: 'gateway', otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT });
const metrics = await startMetricsServer({ port: metricsPort('gateway'), serviceName: 'gateway' }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'gateway cannot serve metrics');
  process.exit(1);
});
const prisma = createPrisma(config.DATABASE_URL, logger);
// Auto-pipelining sends the rate limiter's and the answer cache's commands of concurrent requests in one write.
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: false, enableAutoPipelining: true });
redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
const backends = createBackends({
  referenceData: config.REFERENCE_DATA_GRPC_ADDRESS,
  indexer: config.INDEXER_GRPC_ADDRESS,
  positions: config.POSITIONS_GRPC_ADDRESS,
  chart: config.CHART_GRPC_ADDRESS,
  pnl: config.PNL_GRPC_ADDRESS,
  nft: config.NFT_GRPC_ADDRESS,
  subscription: config.SUBSCRIPTION_GRPC_ADDRESS,
});

const changes = createChangeVersions(redis, { keyPrefix: config.REDIS_KEY_PREFIX });
// Three quarters of the memory for answers, the rest for what they are computed from across price
// moves: transaction pages (3/16) and what wallets hold (1/16; a wallet's rows are a few KB).
const cacheBytes = config.RESPONSE_CACHE_MAX_MB * 1024 * 1024;
const responseCache =
  cacheBytes > 0 ? createResponseCache({ versions: changes, logger, maxBytes: (cacheBytes * 3) / 4, maxAgeMs: config.RESPONSE_CACHE_MAX_AGE_MS }) : undefined;
const transactionPages =
  cacheBytes > 0
    ? createTransactionPages({ versions: changes, logger, maxBytes: (cacheBytes * 3) / 16, maxAgeMs: config.RESPONSE_CACHE_MAX_AGE_MS })
    : undefined;
const positionRows =
  cacheBytes > 0 ? createPositionRows({ versions: changes, logger, maxBytes: cacheBytes / 16, maxAgeMs: config.RESPONSE_CACHE_MAX_AGE_MS }) : undefined;

const lookupOrganization = cachedLookup((key) => findOrganizationByKey(prisma, key));
// A revoked key is forgotten when `keys revoke` says so, not when its cache entry ends. Not awaited:
// the gateway serves while Redis is unreachable, the subscription follows when it connects.
const revocations = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
revocations.on('error', (error) => logger.warn({ err: error }, 'redis error (key revocations)'));
followKeyRevocations(revocations, config.REDIS_KEY_PREFIX, () => lookupOrganization.forgetAll(), logger).catch((error: unknown) =>
  logger.warn({ err: error }, 'not following API key revocations: a revoked key stops working within 30 s'),
);

const app = createApp({
  lookupOrganization,
  redis,
  backends,
  publicUrl: config.PUBLIC_URL,
  rateLimits: { perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST },
  logger,
  checkResponses: config.NODE_ENV !== 'production',
  fungiblesTtlMs: config.GATEWAY_FUNGIBLES_TTL_MS,
  ...(responseCache ? { responseCache } : {}),
  ...(transactionPages ? { transactionPages } : {}),
  ...(positionRows ? { positionRows } : {}),
  changes,
  ...(config.WEBHOOK_CERTIFICATE_FILE ? { webhookCertificateFile: config.WEBHOOK_CERTIFICATE_FILE } : {}),
  ...(paymentConfig
    ? {
        payments: {
          config: paymentConfig,
          facilitator: [createLocalFacilitator(paymentConfig.evm, logger), ...(paymentConfig.svm ? [createLocalSvmFacilitator(paymentConfig.svm)] : [])],
        },
      }
    : {}),
});

const server = app.listen(config.HTTP_PORT, config.HTTP_HOST, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port, metricsPort: metrics.port }, `gateway listening on http://${config.HTTP_HOST}:${port}`);
});
server.on('error', (error) => {
  logger.fatal({ err: error }, 'gateway cannot listen');
  process.exit(1);
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'gateway shutting down');
  const deadline = setTimeout(
    () => {
      logger.error('gateway shutdown timed out; closing remaining connections');
      server.closeAllConnections();
    },
    Math.max(0, config.SHUTDOWN_TIMEOUT_MS - 2_000),
  );
  // Stops accepting, lets in-flight requests finish, and closes keep-alive connections as they go idle.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  clearTimeout(deadline);
  backends.close();
  redis.disconnect();
  revocations.disconnect();
  await prisma.$disconnect();
  await metrics.close();
  await telemetry.shutdown().catch(() => undefined);
  logger.info('gateway stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
