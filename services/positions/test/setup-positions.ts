import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { createProducer, ensureTopics, type TopicSpec } from '@wallet-api/core/kafka';
import type { Logger } from '@wallet-api/core/logger';
import { Registry } from '@wallet-api/core/metrics';
import { Network } from '@wallet-api/core/proto/common';
import {
  PositionsClient,
  PositionsFilter,
  TrashFilter,
  type GetPortfolioRequest,
  type ListPositionsRequest,
  type Portfolio,
  type Position,
} from '@wallet-api/core/proto/positions';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createDappDirectory, createPriceQuotes, createTokenDirectory } from '@wallet-api/core/reference-data';
import {
  setupClickHouseDatabase,
  setupKafka,
  setupChangeVersions,
  setupPostgresDatabase,
  testLogger,
  uniqueName,
  type ClickHouseDatabase,
  type PostgresDatabase,
} from '@wallet-api/core/testing';
import type { ChangeVersions } from '@wallet-api/core/cache';
import { createIndexerMetrics } from '../../indexer/src/pipeline/indexer-metrics.js';
import type { PublisherTopics } from '../../indexer/src/publish/block-publisher.js';
import { pipelineTopics } from '../../indexer/test/pipeline-topics.js';
import { runChainIndexer } from '../../indexer/test/setup-indexing.js';
import { loadChainsConfig, rpcOverrideVariable } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createPriceConsumer, type PriceConsumer } from '../../reference-data/src/consume/price-consumer.js';
import { createChainPriceTracker, createReferenceDataDomain } from '../../reference-data/src/domain.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { loadFxTable } from '../../reference-data/src/prices/currencies.js';
import { loadRegistryConfig } from '../../reference-data/src/registry/registry-config.js';
import { createBalanceLedger } from '../src/balances/balance-ledger.js';
import { createChainDirectory } from '../src/chain/chain-directory.js';
import { createPositionsConsumers, type PositionsConsumers } from '../src/consume/positions-consumers.js';
import { positionsService } from '../src/grpc/positions-service.js';
import { createPositionsMetrics } from '../src/metrics/positions-metrics.js';
import { createHeldWallets } from '../src/positions/held-wallets.js';
import { createProtocolDirectory } from '../src/protocols/protocol-directory.js';
import { createProtocolHistory } from '../src/protocols/protocol-history.js';
import type { ProtocolHoldingsSource } from '../src/protocols/protocol-holdings.js';
import { createUnhurriedHoldings } from './unhurried-holdings.js';
import { createBalanceStore } from '../src/store/balance-store.js';
import { createSnapshotStore } from '../src/store/snapshot-store.js';

const referenceConfig = new URL('../../reference-data/config/', import.meta.url).pathname;
const devnetRegistry = new URL('../../../.data/devnet/registry.json', import.meta.url).pathname;

/**
 * The positions service with everything it reads, real and in one process: chain indexers
 * publishing to topics of the harness's own, a PostgreSQL database and a ClickHouse database of
 * its own, reference-data (tokens, dapps, protocols, and prices folded from the same topics' pool
 * events) and the positions consumers and gRPC service. `rpcUrls` points chains at anvils of the
 * test's own.
 */
export interface PositionsHarness {
  topics: PublisherTopics;
  suffix: string;
  database: PostgresDatabase;
  referenceData: ReferenceDataClient;
  /** Address of the reference-data gRPC server, for a consumer in a process of its own. */
  referenceDataAddress: string;
  /** Starts indexing a chain (from `startBlock`, 0 unless given); call the result to stop it. */
  index(options: { chainId: string; rpcUrl: string; finalityDepth?: number; startBlock?: bigint; family?: 'evm' | 'solana' }): () => Promise<void>;
  /**
   * The positions consumers in this process, on the harness's topics and consumer groups, reading
   * openings through reference-data's RPC URLs (`rpcUrls` of the harness).
   */
  startConsumers(options?: { logger?: Logger }): Promise<PositionsConsumers>;
  /** A positions gRPC service over the harness's database; the harness stops it on close. */
  startService(): Promise<PositionsService>;
  /** Change tokens of the harness's own key space; `keyPrefix` is for a gateway reading them. */
  changes: { versions: ChangeVersions; keyPrefix: string };
  close(): Promise<void>;
}

export interface PositionsService {
  /** host:port of the gRPC server, for a client elsewhere (the gateway's tests). */
  address: string;
  list(request: Partial<ListPositionsRequest> & { address: string; chainIds: string[] }): Promise<Position[]>;
  portfolio(request: Partial<GetPortfolioRequest> & { address: string; chainIds: string[] }): Promise<Portfolio>;
  stop(): Promise<void>;
}

const testnets = new Set(['sepolia']);
const context = (chainIds: readonly string[]) => ({
  organizationId: '',
  roles: [],
  addons: [],
  network: chainIds.some((chainId) => testnets.has(chainId)) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET,
});

export async function startPositionsHarness(options: { rpcUrls?: Record<string, string> } = {}): Promise<PositionsHarness> {
  const suffix = uniqueName('positions');
  const topics = pipelineTopics(suffix);
  const kafka = setupKafka('positions-test');
  await ensureTopics(kafka, Object.values(topics) as TopicSpec<unknown>[]);
  const database = await setupPostgresDatabase(suffix);
  const changes = setupChangeVersions();
  const clickhouse: ClickHouseDatabase = await setupClickHouseDatabase(suffix);
  const overrides = Object.fromEntries(Object.entries(options.rpcUrls ?? {}).map(([chainId, url]) => [rpcOverrideVariable(chainId), url]));
  const chains = await loadChainsConfig(`${referenceConfig}chains.json`, { ...process.env, ...overrides });
  const registry = await loadRegistryConfig([`${referenceConfig}registry.json`, devnetRegistry]);
  const fx = await loadFxTable(`${referenceConfig}fx-rates.json`);
  const domain = createReferenceDataDomain({
    chains,
    registry,
    prisma: database.prisma,
    logger: testLogger,
    prices: { clickhouse: clickhouse.clickhouse, fx, versions: changes.versions, currencyChainId: 'ethereum' },
  });
  const priceConsumer: PriceConsumer = createPriceConsumer({
    kafka,
    tracker: createChainPriceTracker({ chains, registry: domain.registry, tokens: domain.tokens, clickhouse: clickhouse.clickhouse, logger: testLogger }),
    versions: changes.versions,
    prepareLookups: domain.prepareForPriceMove!,
    logger: testLogger,
    groupId: `${suffix}.prices`,
    topics: { poolEvents: topics.poolEvents, chainRollbacks: topics.chainRollbacks },
  });
  await priceConsumer.start();
  const referenceGrpc: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [referenceDataService(createChainRegistry(chains), domain)],
    logger: testLogger,
  });
  const referenceDataAddress = `127.0.0.1:${referenceGrpc.port}`;
  const referenceData = createGrpcClient(ReferenceDataClient, referenceDataAddress);

  const producer = await createProducer(kafka);
  const indexerMetrics = createIndexerMetrics(new Registry());
  const stops = new Set<() => Promise<void>>();
  const running: { stop(): Promise<void> }[] = [];
  const protocols = createProtocolDirectory(referenceData);
  const balances = createBalanceStore(database.prisma);
  const snapshots = createSnapshotStore(database.prisma);
  // One source of protocol positions: the service answers from it, the consumers ask it to refresh.
  const holdings: ProtocolHoldingsSource = createUnhurriedHoldings({
    chains: createChainDirectory(referenceData, { rpcTimeoutMs: 30_000 }),
    protocols,
    snapshots,
    balances,
    versions: changes.versions,
    logger: testLogger,
    metrics: createPositionsMetrics(new Registry()),
  });

  return {
    topics,
    suffix,
    database,
    referenceData,
    referenceDataAddress,
    changes,
    index: (indexed) => runChainIndexer({ prisma: database.prisma, producer, topics, metrics: indexerMetrics, stops, ...indexed }),
    async startConsumers(consumerOptions = {}) {
      const logger = consumerOptions.logger ?? testLogger;
      const metrics = createPositionsMetrics(new Registry());
      const consumers = createPositionsConsumers({
        kafka,
        balances: createBalanceLedger({ store: balances, chains: createChainDirectory(referenceData, { rpcTimeoutMs: 30_000 }), logger, metrics }),
        snapshots,
        protocols,
        refreshes: holdings,
        versions: changes.versions,
        logger,
        metrics,
        groupId: suffix,
        topics,
      });
      await consumers.start();
      running.push(consumers);
      return consumers;
    },
    async startService() {
      const server = await startGrpcServer({
        host: '127.0.0.1',
        port: 0,
        services: [
          positionsService({
            held: createHeldWallets({ balances, snapshots, logger: testLogger, maxBytes: 64 * 1024 * 1024 }),
            versions: changes.versions,
            holdings,
            tokens: createTokenDirectory(referenceData),
            dapps: createDappDirectory(referenceData),
            prices: createPriceQuotes(referenceData, testLogger, { ttlMs: 15_000 }),
            history: createProtocolHistory({ chains: createChainDirectory(referenceData, { rpcTimeoutMs: 30_000 }), protocols, concurrency: 8 }),
            logger: testLogger,
          }),
        ],
        logger: testLogger,
      });
      const client = createGrpcClient(PositionsClient, `127.0.0.1:${server.port}`);
      const service: PositionsService = {
        address: `127.0.0.1:${server.port}`,
        async list(request) {
          const response = await unary(
            client,
            client.listPositions,
            {
              context: context(request.chainIds),
              currency: 'usd',
              positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER,
              positionTypes: [],
              fungibleIds: [],
              dappIds: [],
              trash: TrashFilter.TRASH_FILTER_NO_FILTER,
              sortAscending: false,
              sync: false,
              ...request,
            },
            { deadlineMs: 120_000 },
          );
          return response.positions;
        },
        portfolio: (request) =>
          unary(
            client,
            client.getPortfolio,
            { context: context(request.chainIds), currency: 'usd', positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, sync: false, ...request },
            { deadlineMs: 120_000 },
          ),
        async stop() {
          running.splice(running.indexOf(service), 1);
          client.close();
          await server.shutdown(1_000);
        },
      };
      running.push(service);
      return service;
    },
    async close() {
      for (const stop of [...stops]) await stop();
      for (const part of running.splice(0).reverse()) await part.stop();
      await holdings.close();
      await priceConsumer.stop();
      await producer.disconnect();
      referenceData.close();
      await referenceGrpc.shutdown(1_000);
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
