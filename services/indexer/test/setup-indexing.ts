import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createPrisma, type PrismaClient } from '@wallet-api/core/db';
import { createProducer, ensureTopics, type MessageProducer, type TopicSpec } from '@wallet-api/core/kafka';
import { Registry } from '@wallet-api/core/metrics';
import type { BalanceChange, ChainBlock, ChainRollback, PoolEvent, WalletTransaction } from '@wallet-api/core/proto/events';
import { setupKafka, testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';

export { eventually } from '@wallet-api/core/testing';
import type { Consumer, Kafka } from 'kafkajs';
import { createSolanaRpc } from '@solana/kit';
import { createPublicClient, http } from 'viem';
import { createChainSession, startAnvil, type AnvilInstance, type ChainSession } from '../../../devnet/src/chain/index.js';
import { decodeBlock } from '../src/decode/index.js';
import { createChainIndexer } from '../src/pipeline/chain-indexer.js';
import { createIndexerMetrics, type IndexerMetrics } from '../src/pipeline/indexer-metrics.js';
import { createBlockPublisher, type PublisherTopics } from '../src/publish/block-publisher.js';
import { createSolanaChainIndexer } from '../src/solana/solana-chain-indexer.js';
import { createCheckpointStore } from '../src/store/checkpoint-store.js';
import { pipelineTopics } from './pipeline-topics.js';

const dataDir = new URL('../../../.data/', import.meta.url).pathname;

export interface OwnChain {
  anvil: AnvilInstance;
  session: ChainSession;
  rpcUrl: string;
  stop(): Promise<void>;
}

/**
 * An anvil of the test's own, so the test may mine and reorg without touching the shared chains;
 * `loadState` starts it from a devnet world state (blocks, receipts and traces included).
 */
export async function startOwnChain(options: { chainId?: number; loadState?: string; genesisTimestamp?: number } = {}): Promise<OwnChain> {
  const dir = await mkdtemp(join(dataDir, 'indexer-test-anvil-'));
  const anvil = await startAnvil({
    chainId: options.chainId ?? 31_337,
    cachePath: dir,
    ...(options.loadState ? { loadState: options.loadState } : { genesisTimestamp: options.genesisTimestamp ?? 1_700_000_000 }),
  });
  const session = await createChainSession(anvil.rpcUrl);
  return {
    anvil,
    session,
    rpcUrl: anvil.rpcUrl,
    async stop() {
      await anvil.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Published {
  blocks: ChainBlock[];
  rollbacks: ChainRollback[];
  transactions: WalletTransaction[];
  balanceChanges: BalanceChange[];
  poolEvents: PoolEvent[];
}

/** Reads the harness's topics and keeps the messages of one chain id. */
export async function collectPublished(kafka: Kafka, topics: PublisherTopics, chainId: string): Promise<Published & { stop(): Promise<void> }> {
  const published: Published = { blocks: [], rollbacks: [], transactions: [], balanceChanges: [], poolEvents: [] };
  const consumer: Consumer = kafka.consumer({ groupId: uniqueName('indexer-test') });
  await consumer.connect();
  const specs = [topics.chainBlocks, topics.chainRollbacks, topics.walletTransactions, topics.balanceChanges, topics.poolEvents] as const;
  await consumer.subscribe({ topics: specs.map((spec) => spec.name), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      if (!message.value) return;
      switch (topic) {
        case topics.chainBlocks.name: {
          const value = topics.chainBlocks.codec.decode(message.value);
          if (value.chainId === chainId) published.blocks.push(value);
          return;
        }
        case topics.chainRollbacks.name: {
          const value = topics.chainRollbacks.codec.decode(message.value);
          if (value.chainId === chainId) published.rollbacks.push(value);
          return;
        }
        case topics.walletTransactions.name: {
          const value = topics.walletTransactions.codec.decode(message.value);
          if (value.chainId === chainId) published.transactions.push(value);
          return;
        }
        case topics.balanceChanges.name: {
          const value = topics.balanceChanges.codec.decode(message.value);
          if (value.chainId === chainId) published.balanceChanges.push(value);
          return;
        }
        case topics.poolEvents.name: {
          const value = topics.poolEvents.codec.decode(message.value);
          if (value.chainId === chainId) published.poolEvents.push(value);
          return;
        }
      }
    },
  });
  return { ...published, stop: () => consumer.disconnect() };
}

export interface IndexingHarness {
  kafka: Kafka;
  /** Topics of the harness's own, never the platform's: a service reading those must not see test chains. */
  topics: PublisherTopics;
  prisma: PrismaClient;
  producer: MessageProducer;
  /** Runs an in-process chain indexer until the returned function is called. */
  runIndexer(options: { chainId: string; rpcUrl: string; finalityDepth?: number; family?: 'evm' | 'solana' }): () => Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs an in-process chain indexer publishing to `topics` until the returned function is called;
 * the function is also kept in `stops`, for a harness that stops whatever is still running.
 */
export function runChainIndexer(options: {
  prisma: PrismaClient;
  producer: MessageProducer;
  topics: PublisherTopics;
  metrics: IndexerMetrics;
  stops: Set<() => Promise<void>>;
  chainId: string;
  rpcUrl: string;
  finalityDepth?: number;
  /** Where indexing starts (INDEXER_START_BLOCK, or the first slot on Solana); 0 unless given. */
  startBlock?: bigint;
  /** `solana` runs the Solana indexer (finalized slots through @solana/kit); EVM otherwise. */
  family?: 'evm' | 'solana';
}): () => Promise<void> {
  const controller = new AbortController();
  const running =
    options.family === 'solana'
      ? createSolanaChainIndexer({
          chainId: options.chainId,
          rpc: createSolanaRpc(options.rpcUrl),
          startSlot: options.startBlock ?? 0n,
          pollIntervalMs: 50,
          concurrency: 8,
          publishBatchSize: 10,
          checkpoints: createCheckpointStore(options.prisma),
          publisher: createBlockPublisher(options.producer, options.chainId, options.topics),
          logger: testLogger,
          metrics: options.metrics,
        }).run(controller.signal)
      : createChainIndexer({
          chainId: options.chainId,
          client: createPublicClient({ transport: http(options.rpcUrl, { retryCount: 0 }), cacheTime: 0 }),
          startBlock: options.startBlock ?? 0n,
          finalityDepth: options.finalityDepth ?? 5,
          pollIntervalMs: 50,
          concurrency: 8,
          publishBatchSize: 10,
          checkpoints: createCheckpointStore(options.prisma),
          publisher: createBlockPublisher(options.producer, options.chainId, options.topics),
          decode: decodeBlock,
          logger: testLogger,
          metrics: options.metrics,
          progressIntervalMs: 60_000,
        }).run(controller.signal);
  const stop = async () => {
    controller.abort();
    await running;
    options.stops.delete(stop);
  };
  options.stops.add(stop);
  return stop;
}

export async function setupIndexing(): Promise<IndexingHarness> {
  const kafka = setupKafka('indexer-test');
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const producer = await createProducer(kafka);
  const metrics = createIndexerMetrics(new Registry());
  const stops = new Set<() => Promise<void>>();
  const topics = pipelineTopics(uniqueName('indexing'));
  await ensureTopics(kafka, Object.values(topics) as TopicSpec<unknown>[]);
  return {
    kafka,
    topics,
    prisma,
    producer,
    runIndexer: (options) => runChainIndexer({ prisma, producer, topics, metrics, stops, ...options }),
    async close() {
      for (const stop of [...stops]) await stop();
      await producer.disconnect();
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: Object.values(topics).map((spec) => spec.name) }).catch(() => undefined);
      await admin.disconnect();
      await prisma.$disconnect();
    },
  };
}
