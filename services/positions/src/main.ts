import { z } from 'zod';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { databaseEnv, kafkaEnv, parseEnv, redisEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { consumerGroup, createKafka, platformTopics } from '@wallet-api/core/kafka';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createDappDirectory, createPriceQuotes, createTokenDirectory } from '@wallet-api/core/reference-data';
import { runGrpcService } from '@wallet-api/core/service';
import { createBalanceLedger } from './balances/balance-ledger.js';
import { createChainDirectory } from './chain/chain-directory.js';
import { createPositionsConsumers } from './consume/positions-consumers.js';
import { positionsService } from './grpc/positions-service.js';
import { createPositionsMetrics } from './metrics/positions-metrics.js';
import { createProtocolDirectory } from './protocols/protocol-directory.js';
import { createProtocolHistory } from './protocols/protocol-history.js';
import { createProtocolHoldings, heldTokensFrom } from './protocols/protocol-holdings.js';
import { createHeldWallets } from './positions/held-wallets.js';
import { createBalanceStore } from './store/balance-store.js';
import { createSnapshotStore } from './store/snapshot-store.js';

const env = serviceAddressEnv
  .extend(kafkaEnv.shape)
  .extend(databaseEnv.shape)
  .extend(redisEnv.shape)
  .extend({
    // The spec lets sync=true wait 30 s; the chain read gets most of it, pricing the rest.
    POSITIONS_SYNC_TIMEOUT_MS: z.coerce.number().int().positive().default(25_000),
    // A wallet's first request without sync reads its protocols on demand, within the gateway's 10 s;
    // past this it answers UNAVAILABLE (503, retry) while the read goes on in the background.
    POSITIONS_FIRST_READ_TIMEOUT_MS: z.coerce.number().int().positive().default(8_000),
    POSITIONS_SNAPSHOT_MAX_AGE_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 60_000),
    POSITIONS_REFRESH_CONCURRENCY: z.coerce.number().int().positive().default(4),
    POSITIONS_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    POSITIONS_PRICE_TTL_MS: z.coerce.number().int().positive().default(15_000),
    // Memory for what recently read wallets hold (balances and protocol snapshots), kept under their change tokens.
    POSITIONS_HELD_CACHE_MB: z.coerce.number().int().min(1).default(256),
    // Blocks of one chart read at once from the node (each a few eth_calls).
    POSITIONS_HISTORY_CONCURRENCY: z.coerce.number().int().positive().default(8),
  });

await runGrpcService('positions', parseEnv(serviceAddressEnv).POSITIONS_GRPC_PORT, async ({ logger, metrics: registry }) => {
  const config = parseEnv(env);
  const metrics = createPositionsMetrics(registry);
  const referenceData = createGrpcClient(ReferenceDataClient, config.REFERENCE_DATA_GRPC_ADDRESS);
  const prisma = createPrisma(config.DATABASE_URL, logger);
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID ?? 'positions',
    logger,
    consumerSessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  });
  const changes = connectChangeVersions(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    onError: (error) => logger.warn({ err: error }, 'redis error'),
  });
  const balances = createBalanceStore(prisma);
  const snapshots = createSnapshotStore(prisma);
  const protocols = createProtocolDirectory(referenceData);
  const chains = createChainDirectory(referenceData, { rpcTimeoutMs: config.POSITIONS_RPC_TIMEOUT_MS });
  const holdings = createProtocolHoldings({
    chains,
    protocols,
    snapshots,
    logger,
    metrics,
    syncTimeoutMs: config.POSITIONS_SYNC_TIMEOUT_MS,
    firstReadTimeoutMs: config.POSITIONS_FIRST_READ_TIMEOUT_MS,
    maxSnapshotAgeMs: config.POSITIONS_SNAPSHOT_MAX_AGE_MS,
    refreshConcurrency: config.POSITIONS_REFRESH_CONCURRENCY,
    versions: changes.versions,
    heldTokensOf: heldTokensFrom(balances),
  });
  const ledger = createBalanceLedger({ store: balances, chains, logger, metrics });
  const consumers = createPositionsConsumers({
    kafka,
    balances: ledger,
    snapshots,
    protocols,
    refreshes: holdings,
    versions: changes.versions,
    logger,
    metrics,
    topics: platformTopics(config.KAFKA_TOPIC_SUFFIX),
    groupId: consumerGroup('positions', config.KAFKA_TOPIC_SUFFIX),
  });
  await consumers.start();

  return {
    services: [
      positionsService({
        held: createHeldWallets({ balances, snapshots, logger, maxBytes: config.POSITIONS_HELD_CACHE_MB * 1024 * 1024 }),
        versions: changes.versions,
        holdings,
        tokens: createTokenDirectory(referenceData),
        dapps: createDappDirectory(referenceData),
        history: createProtocolHistory({ chains, protocols, concurrency: config.POSITIONS_HISTORY_CONCURRENCY }),
        logger,
        // Prices are reused until the first price move after them (or the TTL): never valued from before an applied one.
        prices: createPriceQuotes(referenceData, logger, { ttlMs: config.POSITIONS_PRICE_TTL_MS }),
      }),
    ],
    closers: [
      { name: 'kafka consumers', close: () => consumers.stop() },
      { name: 'protocol refreshes', close: () => holdings.close() },
      { name: 'postgres', close: () => prisma.$disconnect() },
      { name: 'redis', close: async () => changes.close() },
      { name: 'reference-data client', close: async () => referenceData.close() },
    ],
  };
});
