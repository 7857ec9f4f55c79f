import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient, startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { createProducer, ensureTopics, type TopicSpec } from '@wallet-api/core/kafka';
import { Registry } from '@wallet-api/core/metrics';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createChangeVersions, type ChangeVersions } from '@wallet-api/core/cache';
import {
  setupChangeVersions,
  setupClickHouseDatabase,
  setupKafka,
  testConfig,
  testLogger,
  uniqueName,
  type ClickHouseDatabase,
} from '@wallet-api/core/testing';
import { createApp } from '../../gateway/src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../../gateway/src/auth/api-keys.js';
import { createBackends, type Backends } from '../../gateway/src/grpc/backends.js';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createPriceConsumer } from '../../reference-data/src/consume/price-consumer.js';
import { createChainPriceTracker, createReferenceDataDomain } from '../../reference-data/src/domain.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { loadFxTable } from '../../reference-data/src/prices/currencies.js';
import { loadRegistryConfig } from '../../reference-data/src/registry/registry-config.js';
import { createResponseCache } from '../../gateway/src/cache/response-cache.js';
import { createTransactionPages } from '../../gateway/src/cache/transaction-pages.js';
import { createTransactionWriter, type TransactionWriter } from '../src/consume/transaction-writer.js';
import { indexerService } from '../src/grpc/indexer-service.js';
import { createIndexerMetrics } from '../src/pipeline/indexer-metrics.js';
import type { PublisherTopics } from '../src/publish/block-publisher.js';
import { pipelineTopics } from './pipeline-topics.js';
import { runChainIndexer } from './setup-indexing.js';

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url).pathname;
const shippedRegistry = new URL('../../reference-data/config/registry.json', import.meta.url).pathname;
const devnetRegistry = new URL('../../../.data/devnet/registry.json', import.meta.url).pathname;
const fxFile = new URL('../../reference-data/config/fx-rates.json', import.meta.url).pathname;

/**
 * The whole path from chain to API answer, in one process with real parts: chain indexers,
 * Kafka (topics of this pipeline's own), the transaction writer, reference-data's price consumer,
 * a ClickHouse database of its own, the reference-data and indexer gRPC services, and the gateway
 * with an API key.
 */
export interface Pipeline {
  topics: PublisherTopics;
  /** Suffix of the pipeline's topic names and name of its ClickHouse database. */
  suffix: string;
  database: ClickHouseDatabase;
  /** The pipeline's reference-data service, for what the API's answers are held against. */
  referenceData: ReferenceDataClient;
  /** host:port of the pipeline's reference-data service, for services started in a process of their own. */
  referenceDataAddress: string;
  /** host:port of the pipeline's indexer gRPC service (ListWalletHistory, for the pnl service). */
  indexerAddress: string;
  /** Starts indexing a chain in-process (from block 0 unless `startBlock`); call the result to stop it. */
  index(options: { chainId: string; rpcUrl: string; finalityDepth?: number; startBlock?: bigint; family?: 'evm' | 'solana' }): () => Promise<void>;
  /** GET on the gateway with the pipeline's API key; answers the status and JSON body. */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Follows `links.next` from `path` and returns every item. */
  getAll(path: string): Promise<any[]>;
  /** The pipeline's change tokens, as its services mark them. */
  versions: ChangeVersions;
  /** Forgets the chains' checkpoints, so indexing starts from block 0. */
  resetCheckpoints(chainIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

export interface PipelineOptions {
  /**
   * Run the in-process consumers (the transaction writer into ClickHouse, reference-data's price
   * consumer); default true. A test that restarts Kafka leaves them out: a kafkajs consumer
   * restarting after a broker outage does not stop, and would keep jest from exiting.
   */
  consumers?: boolean;
  /** host:port the gateway reaches the nft service at (a service the test starts there after the pipeline). */
  nftAddress?: string;
}

export async function startPipeline(options: PipelineOptions = {}): Promise<Pipeline> {
  const consumers = options.consumers ?? true;
  const suffix = uniqueName('e2e');
  const ownTopics = pipelineTopics(suffix);
  const kafka = setupKafka('pipeline-test');
  await ensureTopics(kafka, Object.values(ownTopics) as TopicSpec<unknown>[]);
  const database = await setupClickHouseDatabase(suffix);
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const changes = setupChangeVersions();

  const chains = await loadChainsConfig(chainsFile);
  const registry = await loadRegistryConfig([shippedRegistry, devnetRegistry]);
  const domain = createReferenceDataDomain({
    chains,
    registry,
    prisma,
    logger: testLogger,
    prices: { clickhouse: database.clickhouse, fx: await loadFxTable(fxFile), versions: changes.versions },
  });
  const referenceGrpc: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [referenceDataService(createChainRegistry(chains), domain)],
    logger: testLogger,
  });
  const prices = createPriceConsumer({
    kafka,
    tracker: createChainPriceTracker({ chains, registry: domain.registry, tokens: domain.tokens, clickhouse: database.clickhouse, logger: testLogger }),
    versions: changes.versions,
    prepareLookups: domain.prepareForPriceMove!,
    logger: testLogger,
    groupId: suffix,
    topics: ownTopics,
  });
  if (consumers) await prices.start();
  const referenceData = createGrpcClient(ReferenceDataClient, `127.0.0.1:${referenceGrpc.port}`);
  const writer: TransactionWriter = createTransactionWriter({
    kafka,
    clickhouse: database.clickhouse,
    referenceData,
    versions: changes.versions,
    logger: testLogger,
    topics: ownTopics,
    groupId: suffix,
  });
  if (consumers) await writer.start();
  const indexerGrpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [indexerService({ clickhouse: database.clickhouse, referenceData })],
    logger: testLogger,
  });
  const backends: Backends = createBackends({
    referenceData: `127.0.0.1:${referenceGrpc.port}`,
    indexer: `127.0.0.1:${indexerGrpc.port}`,
    positions: `127.0.0.1:${indexerGrpc.port}`,
    ...(options.nftAddress ? { nft: options.nftAddress } : {}),
  });
  const gatewayChanges = createChangeVersions(redis, { keyPrefix: changes.keyPrefix });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl: 'http://api.test',
    rateLimits: { perSecond: 100_000, burst: 100_000 },
    logger: testLogger,
    checkResponses: true,
    // The cache in force, as in the start command's gateway: every answer the pipeline's tests read must be current.
    changes: gatewayChanges,
    responseCache: createResponseCache({ versions: gatewayChanges, logger: testLogger, maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000 }),
    transactionPages: createTransactionPages({ versions: gatewayChanges, logger: testLogger, maxBytes: 16 * 1024 * 1024, maxAgeMs: 60_000 }),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('pipeline'), roles: [], addons: [] });
  const authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

  const producer = await createProducer(kafka);
  const metrics = createIndexerMetrics(new Registry());
  const stops = new Set<() => Promise<void>>();

  async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization, ...headers } });
    return { status: response.status, body: await response.json() };
  }

  return {
    topics: ownTopics,
    suffix,
    database,
    referenceData,
    referenceDataAddress: `127.0.0.1:${referenceGrpc.port}`,
    indexerAddress: `127.0.0.1:${indexerGrpc.port}`,
    versions: changes.versions,
    index: (options) => runChainIndexer({ prisma, producer, topics: ownTopics, metrics, stops, ...options }),
    get,
    async getAll(path) {
      const items: any[] = [];
      let next: string | undefined = path;
      while (next) {
        const { status, body } = await get(next);
        if (status !== 200) throw new Error(`GET ${next}: ${status} ${JSON.stringify(body)}`);
        items.push(...body.data);
        next = body.links.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : undefined;
      }
      return items;
    },
    async resetCheckpoints(chainIds) {
      await prisma.indexedBlock.deleteMany({ where: { chainId: { in: [...chainIds] } } });
    },
    async close() {
      for (const stop of [...stops]) await stop();
      if (consumers) {
        await writer.stop();
        await prices.stop();
      }
      await producer.disconnect();
      await new Promise((resolve) => server.close(resolve));
      backends.close();
      referenceData.close();
      changes.close();
      await indexerGrpc.shutdown(1_000);
      await referenceGrpc.shutdown(1_000);
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: Object.values(ownTopics).map((spec) => spec.name) }).catch(() => undefined);
      await admin.disconnect();
      await database.drop();
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
