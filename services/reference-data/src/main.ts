import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createClickHouse } from '@wallet-api/core/clickhouse';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { clickHouseEnv, databaseEnv, kafkaEnv, parseEnv, redisEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createPrisma } from '@wallet-api/core/db';
import { consumerGroup, createKafka, platformTopics } from '@wallet-api/core/kafka';
import { runGrpcService } from '@wallet-api/core/service';
import { loadChainsConfig } from './chains/chain-config.js';
import { createChainRegistry } from './chains/chain-registry.js';
import { createPriceConsumer } from './consume/price-consumer.js';
import { createChainPriceTracker, createReferenceDataDomain } from './domain.js';
import { referenceDataService } from './grpc/reference-data-service.js';
import { swapService } from './grpc/swap-service.js';
import { createSwapQuoter, swapClients } from './swap/swap-quoter.js';
import { fungibleChartsServiceOver } from './grpc/fungible-charts-service.js';
import { fungiblesService } from './grpc/fungibles-service.js';
import { createFungibleListFor } from './fungibles/fungible-list-service.js';
import { dappsService } from './grpc/dapps-service.js';
import { gasService } from './grpc/gas-service.js';
import { createGasTrackers } from './gas/gas-trackers.js';
import { loadFxTable } from './prices/currencies.js';
import { createPricedTokens } from './prices/priced-tokens.js';
import { createPriceRows } from './store/price-rows.js';
import { createPriceStore } from './store/price-store.js';
import { loadRegistryConfig, registryPaths } from './registry/registry-config.js';

const config = parseEnv(
  serviceAddressEnv
    .extend(databaseEnv.shape)
    .extend(clickHouseEnv.shape)
    .extend(kafkaEnv.shape)
    .extend(redisEnv.shape)
    .extend({
      CHAINS_CONFIG_FILE: z.string().default(fileURLToPath(new URL('../config/chains.json', import.meta.url))),
      // The shipped dapp and token registry; REGISTRY_PATHS (comma-separated) are merged over it in order.
      REGISTRY_CONFIG_FILE: z.string().default(fileURLToPath(new URL('../config/registry.json', import.meta.url))),
      REGISTRY_PATHS: z.string().default('').transform(registryPaths),
      // USD to fiat rates with their as-of date; the bundled table serves offline deployments.
      FX_RATES_FILE: z.string().default(fileURLToPath(new URL('../config/fx-rates.json', import.meta.url))),
      // The chain whose wrapped native token and registry `btc` tokens are the eth and btc currencies.
      PRICES_CURRENCY_CHAIN: z.string().default('ethereum'),
      // How long the fold's rows wait for their INSERT (lookups read them from memory meanwhile); as
      // INDEXER_STORE_INTERVAL_MS, for ClickHouse 18.16's merges.
      PRICES_STORE_INTERVAL_MS: z.coerce.number().int().nonnegative().default(300_000),
      // How long a Solana Token-2022 mint's ScaledUiAmount multiplier is served before the mint is read again.
      TOKENS_SCALED_TTL_MS: z.coerce.number().int().nonnegative().default(15_000),
      // How often each EVM chain's head is polled for gas prices; fees are read only when a new block is there.
      GAS_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(2_000),
    }),
);

await runGrpcService('reference-data', config.REFERENCE_DATA_GRPC_PORT, async ({ logger }) => {
  const chains = await loadChainsConfig(config.CHAINS_CONFIG_FILE);
  const registry = await loadRegistryConfig([config.REGISTRY_CONFIG_FILE, ...config.REGISTRY_PATHS]);
  const fx = await loadFxTable(config.FX_RATES_FILE);
  const prisma = createPrisma(config.DATABASE_URL, logger);
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
  // Every chain's fold hands its rows here; one INSERT per table for all, every PRICES_STORE_INTERVAL_MS.
  const priceRows = createPriceRows({ clickhouse, logger, storeEveryMs: config.PRICES_STORE_INTERVAL_MS });
  const priced = createPricedTokens({ redis: changes.redis, keyPrefix: config.REDIS_KEY_PREFIX, store: createPriceStore(clickhouse, priceRows), logger });
  // Until the set is complete, lookups read ClickHouse for every token; a failed build is tried again by the next lookup.
  priced.ensureComplete().catch((error: unknown) => logger.warn({ err: error }, 'priced tokens: building the set failed'));
  const domain = createReferenceDataDomain({
    chains,
    registry,
    prisma,
    logger,
    scaledTtlMs: config.TOKENS_SCALED_TTL_MS,
    prices: { clickhouse, fx, versions: changes.versions, currencyChainId: config.PRICES_CURRENCY_CHAIN, priced, rows: priceRows },
  });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID ?? 'reference-data',
    logger,
    consumerSessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  });
  const consumer = createPriceConsumer({
    kafka,
    versions: changes.versions,
    // This process's lookups find each price batch in memory as soon as it is announced.
    ...(domain.prepareForPriceMove ? { prepareLookups: domain.prepareForPriceMove } : {}),
    tracker: createChainPriceTracker({ chains, registry: domain.registry, tokens: domain.tokens, clickhouse, logger, priced, rows: priceRows }),
    rows: priceRows,
    logger,
    topics: platformTopics(config.KAFKA_TOPIC_SUFFIX),
    groupId: consumerGroup('reference-data.prices', config.KAFKA_TOPIC_SUFFIX),
  });
  await consumer.start();
  logger.info({ fxAsOf: fx.as_of }, 'price consumer started');
  const gasTrackers = createGasTrackers(chains, { intervalMs: config.GAS_POLL_INTERVAL_MS, logger });
  for (const tracker of gasTrackers.values()) tracker.start();
  return {
    services: [
      referenceDataService(createChainRegistry(chains), domain),
      fungiblesService(createFungibleListFor({ chains, registryConfig: registry, registry: domain.registry, catalog: domain.fungibles!, prisma, logger })),
      dappsService(registry.dapps),
      fungibleChartsServiceOver({ chains, domain, clickhouse, versions: changes.versions }),
      gasService(createChainRegistry(chains), gasTrackers),
      swapService(
        createSwapQuoter({
          chains,
          registry: domain.registry,
          tokens: registry.tokens,
          clients: swapClients(chains),
          ...(domain.prices ? { prices: domain.prices } : {}),
        }),
      ),
    ],
    closers: [
      { name: 'gas trackers', close: async () => void (await Promise.all([...gasTrackers.values()].map((tracker) => tracker.stop()))) },
      { name: 'price consumer', close: () => consumer.stop() },
      { name: 'clickhouse', close: () => clickhouse.close() },
      { name: 'redis', close: async () => changes.close() },
      { name: 'postgresql', close: () => prisma.$disconnect() },
    ],
  };
});
