import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { createProducer, ensureTopics, type TopicSpec } from '@wallet-api/core/kafka';
import { Registry as MetricsRegistry } from '@wallet-api/core/metrics';
import {
  consumerGroupCaughtUp,
  eventually,
  setupChangeVersions,
  setupClickHouseDatabase,
  setupKafka,
  setupPostgresDatabase,
  testConfig,
  testLogger,
  uniqueName,
} from '@wallet-api/core/testing';
import { readManifest, type Manifest } from '../../../devnet/src/manifest/index.js';
import { createIndexerMetrics } from '../../indexer/src/pipeline/indexer-metrics.js';
import { pipelineTopics } from '../../indexer/test/pipeline-topics.js';
import { runChainIndexer } from '../../indexer/test/setup-indexing.js';
import { loadChainsConfig, type ChainConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createPriceConsumer } from '../../reference-data/src/consume/price-consumer.js';
import { createChainPriceTracker, createReferenceDataDomain } from '../../reference-data/src/domain.js';
import { createFungibleListFor } from '../../reference-data/src/fungibles/fungible-list-service.js';
import { fungiblesService } from '../../reference-data/src/grpc/fungibles-service.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { loadFxTable } from '../../reference-data/src/prices/currencies.js';
import { loadRegistryConfig, type RegistryConfig } from '../../reference-data/src/registry/registry-config.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends } from '../src/grpc/backends.js';

const referenceConfig = new URL('../../reference-data/config/', import.meta.url).pathname;
const devnetRegistry = new URL('../../../.data/devnet/registry.json', import.meta.url).pathname;

export interface FungiblesGateway {
  manifest: Manifest;
  chains: ChainConfig[];
  registry: RegistryConfig;
  /** `GET` with a key of an organization without add-ons, or with `classification` when `classified`. */
  get(path: string, options?: { headers?: Record<string, string>; classified?: boolean }): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * The gateway over a reference-data of its own (domain and fungibles list, as main.ts wires them)
 * whose prices come from the test world's EVM chains: indexed in-process into Kafka topics of the
 * suite's own, folded by a price consumer into a ClickHouse database of its own. Returns once every
 * chain is indexed to the world's end and every pool event is folded.
 */
export async function startFungiblesGateway(): Promise<FungiblesGateway> {
  const suffix = uniqueName('fungibles');
  const manifest = await readManifest();
  const kafka = setupKafka('fungibles-test');
  const topics = pipelineTopics(suffix);
  await ensureTopics(kafka, Object.values(topics) as TopicSpec<unknown>[]);
  const database = await setupPostgresDatabase(suffix);
  const clickhouse = await setupClickHouseDatabase(suffix);
  const changes = setupChangeVersions();
  const chains = await loadChainsConfig(`${referenceConfig}chains.json`, {});
  const registry = await loadRegistryConfig([`${referenceConfig}registry.json`, devnetRegistry]);
  const fx = await loadFxTable(`${referenceConfig}fx-rates.json`);
  const domain = createReferenceDataDomain({
    chains,
    registry,
    prisma: database.prisma,
    logger: testLogger,
    prices: { clickhouse: clickhouse.clickhouse, fx, versions: changes.versions, currencyChainId: 'ethereum' },
  });
  const consumer = createPriceConsumer({
    kafka,
    tracker: createChainPriceTracker({ chains, registry: domain.registry, tokens: domain.tokens, clickhouse: clickhouse.clickhouse, logger: testLogger }),
    versions: changes.versions,
    prepareLookups: domain.prepareForPriceMove!,
    logger: testLogger,
    groupId: `${suffix}.prices`,
    topics: { poolEvents: topics.poolEvents, chainRollbacks: topics.chainRollbacks },
  });
  await consumer.start();
  const list = createFungibleListFor({
    chains,
    registryConfig: registry,
    registry: domain.registry,
    catalog: domain.fungibles!,
    prisma: database.prisma,
    logger: testLogger,
  });
  const grpc: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [referenceDataService(createChainRegistry(chains), domain), fungiblesService(list)],
    logger: testLogger,
  });
  const address = `127.0.0.1:${grpc.port}`;

  const producer = await createProducer(kafka);
  const stops = new Set<() => Promise<void>>();
  const metrics = createIndexerMetrics(new MetricsRegistry());
  for (const chain of manifest.chains)
    runChainIndexer({ prisma: database.prisma, producer, topics, metrics, stops, chainId: chain.id, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  for (const chain of manifest.chains) {
    await eventually(async () => {
      const checkpoint = await database.prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId: chain.id, number: BigInt(chain.endBlock) } } });
      if (!checkpoint) throw new Error(`${chain.id} not indexed to ${chain.endBlock} yet`);
    }, 240_000);
  }
  await eventually(() => consumerGroupCaughtUp(kafka, `${suffix}.prices.pool-events`, topics.poolEvents.name), 120_000);

  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const backends = createBackends({ referenceData: address, indexer: address, positions: address });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl: 'https://api.wallet.test',
    rateLimits: { perSecond: 100_000, burst: 100_000 },
    logger: testLogger,
    checkResponses: true,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const basic = async (addons: string[]) => {
    const { key } = await createOrganizationKey(prisma, { org: uniqueName('fungibles'), roles: [], addons });
    return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  };
  const [plain, classified] = [await basic([]), await basic(['classification'])];

  return {
    manifest,
    chains,
    registry,
    async get(path, options = {}) {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: options.classified ? classified : plain, ...options.headers } });
      return { status: response.status, body: await response.json() };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      backends.close();
      for (const stop of [...stops]) await stop();
      await consumer.stop();
      await producer.disconnect();
      await grpc.shutdown(1_000);
      redis.disconnect();
      await prisma.$disconnect();
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: Object.values(topics).map((spec) => spec.name) }).catch(() => undefined);
      await admin.disconnect();
      await clickhouse.drop();
      await database.drop();
      changes.close();
    },
  };
}
