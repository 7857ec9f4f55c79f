// The price pipeline of one test, with real parts: an anvil of its own started from the test
// world's ethereum state, the indexer publishing to Kafka topics of its own, a ClickHouse database
// of its own, and reference-data's price consumer and gRPC service over them. The chain gets an id
// of its own too (the world's `ethereum` registry entries are renamed to it), so no other suite's
// indexer checkpoints or rows meet this one's.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient, startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import {
  eventually,
  setupChangeVersions,
  setupClickHouseDatabase,
  testConfig,
  testLogger,
  uniqueName,
  type ClickHouseDatabase,
} from '@wallet-api/core/testing';
import { sql } from '@wallet-api/core/clickhouse';
import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { readManifest, type ChainWorld, type Manifest } from '../../../devnet/src/manifest/index.js';
import { devnetRegistry } from '../../../devnet/src/registry/index.js';
import { setupIndexing, startOwnChain, type IndexingHarness, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { parseChainsConfig, type ChainConfig } from '../src/chains/chain-config.js';
import { createChainRegistry } from '../src/chains/chain-registry.js';
import { createPriceConsumer, type PriceConsumer } from '../src/consume/price-consumer.js';
import { createChainPriceTracker, createReferenceDataDomain } from '../src/domain.js';
import { referenceDataService } from '../src/grpc/reference-data-service.js';
import { loadFxTable, type FxTable } from '../src/prices/currencies.js';
import { mergeRegistries, parseRegistryConfig, type RegistryConfig } from '../src/registry/registry-config.js';

const chainsFile = new URL('../config/chains.json', import.meta.url).pathname;
const shippedRegistry = new URL('../config/registry.json', import.meta.url).pathname;
const fxFile = new URL('../config/fx-rates.json', import.meta.url).pathname;
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;

export interface PricePipeline {
  manifest: Manifest;
  /** The test world's ethereum chain, whose state the own anvil started from. */
  world: ChainWorld;
  /** The chain's id in this pipeline (registry, chains config, messages, rows). */
  chainId: string;
  chain: OwnChain;
  client: PublicClient;
  registry: RegistryConfig;
  fx: FxTable;
  database: ClickHouseDatabase;
  harness: IndexingHarness;
  grpc: InstanceType<typeof ReferenceDataClient>;
  /** Starts a price consumer (new tracker, as a restarted process would have) under a consumer group. */
  startConsumer(groupId: string): Promise<PriceConsumer>;
  /** Until the consumer has stored the pool events of `blockNumber`. */
  indexedThrough(blockNumber: bigint): Promise<void>;
  /** The newest block with a log of one of `pools`, read from the chain. */
  lastPoolEventBlock(pools: readonly { address: string }[]): Promise<bigint>;
  close(): Promise<void>;
}

export async function startPricePipeline(): Promise<PricePipeline> {
  const manifest = await readManifest();
  const world = manifest.chains.find((chain) => chain.id === 'ethereum')!;
  const chainId = `eth-${randomBytes(4).toString('hex')}`;
  const chain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
  const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }) as PublicClient;

  const chainsJson = JSON.parse(await readFile(chainsFile, 'utf8')) as { chains: { id: string }[] };
  const chains: ChainConfig[] = parseChainsConfig(
    { chains: chainsJson.chains.map((entry) => (entry.id === 'ethereum' ? { ...entry, id: chainId } : entry)) },
    {},
  ).map((entry) => (entry.id === chainId ? { ...entry, rpc: { ...entry.rpc, url: chain.rpcUrl } } : entry));
  // The world's ethereum entries become this chain's: same contracts, at the same addresses.
  const renamed = JSON.parse(JSON.stringify(devnetRegistry(manifest)).replaceAll('"ethereum"', JSON.stringify(chainId)));
  const registry = mergeRegistries([
    parseRegistryConfig(JSON.parse(await readFile(shippedRegistry, 'utf8')), 'shipped'),
    parseRegistryConfig(renamed, 'test world'),
  ]);
  const fx = await loadFxTable(fxFile);

  const database = await setupClickHouseDatabase(uniqueName('prices'));
  const harness = await setupIndexing();
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const changes = setupChangeVersions();
  const domain = createReferenceDataDomain({
    chains,
    registry,
    prisma,
    logger: testLogger,
    prices: { clickhouse: database.clickhouse, fx, versions: changes.versions, currencyChainId: chainId },
  });
  const server: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [referenceDataService(createChainRegistry(chains), domain)],
    logger: testLogger,
  });
  const grpc = createGrpcClient(ReferenceDataClient, `127.0.0.1:${server.port}`);
  const consumers: PriceConsumer[] = [];

  return {
    manifest,
    world,
    chainId,
    chain,
    client,
    registry,
    fx,
    database,
    harness,
    grpc,
    async startConsumer(groupId) {
      const consumer = createPriceConsumer({
        kafka: harness.kafka,
        tracker: createChainPriceTracker({ chains, registry: domain.registry, tokens: domain.tokens, clickhouse: database.clickhouse, logger: testLogger }),
        versions: changes.versions,
        prepareLookups: domain.prepareForPriceMove!,
        logger: testLogger,
        groupId,
        topics: harness.topics,
      });
      await consumer.start();
      consumers.push(consumer);
      return consumer;
    },
    async indexedThrough(blockNumber) {
      await eventually(async () => {
        const [row] = await database.clickhouse.query<{ height: string }>(sql`SELECT max(block_number) AS height FROM pool_events WHERE chain_id = ${chainId}`);
        if (BigInt(row?.height ?? 0) < blockNumber) throw new Error(`pool events indexed through ${row?.height}, waiting for ${blockNumber}`);
      }, 120_000);
    },
    async lastPoolEventBlock(pools) {
      const logs = await client.getLogs({ address: pools.map((pool) => pool.address as Address), fromBlock: 0n });
      return logs.reduce((max, log) => (log.blockNumber! > max ? log.blockNumber! : max), 0n);
    },
    async close() {
      for (const consumer of consumers) await consumer.stop();
      grpc.close();
      changes.close();
      await server.shutdown(1_000);
      await harness.close();
      await chain.stop();
      await prisma.$disconnect();
      await database.drop();
    },
  };
}
