import { z } from 'zod';
import { createPublicClient, http } from 'viem';
import { createSolanaRpc } from '@solana/kit';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { clickHouseEnv, databaseEnv, kafkaEnv, parseEnv, redisEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createClickHouse } from '@wallet-api/core/clickhouse';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { consumerGroup, createKafka, createProducer, platformTopics } from '@wallet-api/core/kafka';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { listAllChains } from '@wallet-api/core/reference-data';
import { runGrpcService } from '@wallet-api/core/service';
import { createTransactionWriter } from './consume/transaction-writer.js';
import { decodeBlock } from './decode/index.js';
import { indexerService } from './grpc/indexer-service.js';
import { actionsService } from './grpc/actions-service.js';
import { createUnsignedActionStore } from './store/unsigned-action-store.js';
import { createUnsignedSnapshotSource } from './actions/unsigned-snapshot-source.js';
import { createChainIndexer } from './pipeline/chain-indexer.js';
import { finalityDepthsFromEnv, selectIndexedChains, type IndexedChain } from './pipeline/indexed-chains.js';
import { createIndexerMetrics } from './pipeline/indexer-metrics.js';
import { createBlockPublisher } from './publish/block-publisher.js';
import { createCheckpointStore } from './store/checkpoint-store.js';
import { createSolanaChainIndexer } from './solana/solana-chain-indexer.js';
import { createHistoryMemory } from './store/history-memory.js';
import { createPendingPool, type PendingPool } from './pending/pending-pool.js';
import { createPendingSnapshotSource } from './pending/pending-snapshot-source.js';
import { backoffDelay, defaultRetryPolicy } from './sync/backoff.js';

const env = serviceAddressEnv
  .extend(kafkaEnv.shape)
  .extend(databaseEnv.shape)
  .extend(clickHouseEnv.shape)
  .extend(redisEnv.shape)
  .extend({
    INDEXER_CHAINS: z
      .string()
      .optional()
      .transform((value) =>
        value
          ?.split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    INDEXER_START_BLOCK: z.coerce.bigint().nonnegative().default(0n),
    // Solana slots and block numbers are unrelated to EVM heights, so Solana chains start on their own.
    INDEXER_SOLANA_START_SLOT: z.coerce.bigint().nonnegative().default(0n),
    INDEXER_FINALITY_DEPTH: z.coerce.number().int().positive().default(12),
    INDEXER_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(500),
    INDEXER_FETCH_CONCURRENCY: z.coerce.number().int().positive().default(16),
    INDEXER_PUBLISH_BATCH: z.coerce.number().int().positive().default(50),
    // Tracing a busy block re-executes every transaction on the node, which takes a while.
    INDEXER_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
    // How long transaction, block and balance-change rows may wait for their INSERT (readers see
    // them at once). ClickHouse 18.16 rewrites a partition's youngest part (up to 5 MB) together with
    // the new parts once about five have gathered: at one INSERT a second that was every few seconds.
    INDEXER_STORE_INTERVAL_MS: z.coerce.number().int().nonnegative().default(300_000),
    // How often each EVM chain's pending pool is read (one txpool_content call when it is idle).
    PENDING_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(1_000),
    // How long an unsigned action (a swap quote's transaction) stays open after it is created.
    ACTIONS_LIFETIME_MS: z.coerce.number().int().positive().default(600_000),
  });

await runGrpcService('indexer', parseEnv(serviceAddressEnv).INDEXER_GRPC_PORT, async ({ logger, metrics: registry }) => {
  const config = parseEnv(env);
  const metrics = createIndexerMetrics(registry);
  const topics = platformTopics(config.KAFKA_TOPIC_SUFFIX);
  const referenceData = createGrpcClient(ReferenceDataClient, config.REFERENCE_DATA_GRPC_ADDRESS);
  const prisma = createPrisma(config.DATABASE_URL, logger);
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID ?? 'indexer',
    logger,
    consumerSessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  });
  const producer = await createProducer(kafka);
  const checkpoints = createCheckpointStore(prisma);
  const actions = createUnsignedActionStore(prisma);
  const clickhouse = createClickHouse({
    url: config.CLICKHOUSE_URL,
    database: config.CLICKHOUSE_DATABASE,
    username: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
  });
  const changes = connectChangeVersions(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    onError: (error) => logger.warn({ err: error }, 'redis error'),
  });
  // The writer keeps the bodies and the rows it writes, so a page read after a wallet's new
  // transaction finds them before they are stored.
  const memory = createHistoryMemory({ clickhouse, logger, storeEveryMs: config.INDEXER_STORE_INTERVAL_MS });
  const writer = createTransactionWriter({
    kafka,
    clickhouse,
    referenceData,
    versions: changes.versions,
    memory,
    logger,
    topics,
    groupId: consumerGroup('indexer.wallet-history', config.KAFKA_TOPIC_SUFFIX),
  });
  await writer.start();
  const controller = new AbortController();
  // Filled once the chains are known; Solana chains have none (the devnet seals at once, and the
  // RPC exposes no pool of unsealed transactions).
  const pendingPools: PendingPool[] = [];

  /** The chain list comes from reference-data, which may start after the indexer: ask until it answers. */
  async function discoverChains(): Promise<IndexedChain[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return selectIndexedChains(await listAllChains(referenceData), {
          ...(config.INDEXER_CHAINS ? { only: config.INDEXER_CHAINS } : {}),
          defaultFinalityDepth: config.INDEXER_FINALITY_DEPTH,
          finalityDepths: finalityDepthsFromEnv(process.env),
        });
      } catch (error) {
        if (controller.signal.aborted) return [];
        logger.warn({ err: error }, 'cannot list chains from reference-data yet; retrying');
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(Math.min(attempt, 5), defaultRetryPolicy)));
      }
    }
  }

  const indexing = discoverChains().then(async (chains) => {
    if (controller.signal.aborted) return;
    logger.info({ chains: chains.map((chain) => chain.id) }, 'chain indexers starting');
    for (const chain of chains) {
      if (chain.family === 'solana') continue;
      pendingPools.push(
        createPendingPool({
          chainId: chain.id,
          client: createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: config.INDEXER_RPC_TIMEOUT_MS }), cacheTime: 0 }),
          pollIntervalMs: config.PENDING_POLL_INTERVAL_MS,
          logger,
        }),
      );
    }
    await Promise.all([
      ...pendingPools.map((pool) => pool.run(controller.signal)),
      ...chains.map((chain) =>
        chain.family === 'solana'
          ? createSolanaChainIndexer({
              chainId: chain.id,
              rpc: createSolanaRpc(chain.rpcUrl),
              startSlot: config.INDEXER_SOLANA_START_SLOT,
              pollIntervalMs: config.INDEXER_POLL_INTERVAL_MS,
              concurrency: config.INDEXER_FETCH_CONCURRENCY,
              publishBatchSize: config.INDEXER_PUBLISH_BATCH,
              checkpoints,
              publisher: createBlockPublisher(producer, chain.id, topics),
              logger,
              metrics,
            }).run(controller.signal)
          : createChainIndexer({
              chainId: chain.id,
              client: createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: config.INDEXER_RPC_TIMEOUT_MS }), cacheTime: 0 }),
              startBlock: config.INDEXER_START_BLOCK,
              finalityDepth: chain.finalityDepth,
              pollIntervalMs: config.INDEXER_POLL_INTERVAL_MS,
              concurrency: config.INDEXER_FETCH_CONCURRENCY,
              publishBatchSize: config.INDEXER_PUBLISH_BATCH,
              checkpoints,
              publisher: createBlockPublisher(producer, chain.id, topics),
              decode: decodeBlock,
              logger,
              metrics,
            }).run(controller.signal),
      ),
    ]);
  });

  return {
    services: [
      indexerService({
        clickhouse,
        referenceData,
        memory,
        pending: createPendingSnapshotSource(pendingPools, referenceData),
        unsigned: createUnsignedSnapshotSource(actions),
      }),
      actionsService({ store: actions, referenceData, lifetimeMs: config.ACTIONS_LIFETIME_MS }),
    ],
    closers: [
      {
        name: 'chain indexers',
        async close() {
          controller.abort();
          await indexing;
        },
      },
      { name: 'kafka producer', close: () => producer.disconnect() },
      { name: 'transaction writer', close: () => writer.stop() },
      { name: 'clickhouse', close: () => clickhouse.close() },
      { name: 'redis', close: async () => changes.close() },
      { name: 'postgres', close: () => prisma.$disconnect() },
      { name: 'reference-data client', close: async () => referenceData.close() },
    ],
  };
});
