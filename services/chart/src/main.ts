import { z } from 'zod';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { createClickHouse } from '@wallet-api/core/clickhouse';
import { clickHouseEnv, kafkaEnv, parseEnv, redisEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { consumerGroup, createKafka, platformTopics } from '@wallet-api/core/kafka';
import { PositionsClient } from '@wallet-api/core/proto/positions';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory, createWalletTracking } from '@wallet-api/core/reference-data';
import { runGrpcService } from '@wallet-api/core/service';
import { createChartConsumer } from './consume/chart-consumer.js';
import { chartService } from './grpc/chart-service.js';
import { createChangesMemo } from './series/changes-memo.js';
import { createChartValuation } from './prices/chart-valuation.js';
import { createPointPriceCache } from '@wallet-api/core/reference-data';
import { createProtocolSeries } from './protocols/protocol-series.js';
import { createBlockClock } from './store/block-clock.js';
import { createChartStore } from './store/chart-store.js';

const env = serviceAddressEnv
  .extend(kafkaEnv.shape)
  .extend(clickHouseEnv.shape)
  .extend(redisEnv.shape)
  .extend({
    // How long balance changes may wait in memory for their INSERT (charts read them at once): one
    // INSERT per round instead of one per consumer batch keeps ClickHouse 18.16's merges quiet.
    CHART_STORE_INTERVAL_MS: z.coerce.number().int().nonnegative().default(300_000),
    // Prices of points at least this old are kept across charts (until a price move or rollback
    // touches their time): newer ones may still change with blocks the clock has not seen.
    CHART_PRICE_SETTLE_SECONDS: z.coerce.number().int().nonnegative().default(600),
    CHART_PRICE_CACHE_ENTRIES: z.coerce.number().int().positive().default(500_000),
    // Windows of wallets' bucketed balance changes kept in memory under their chart tokens (a few KB each).
    CHART_CHANGES_CACHE_ENTRIES: z.coerce.number().int().positive().default(20_000),
    // Wallets' balance changes after their summarised days, kept in memory and followed as they come
    // (a few hundred bytes each): charts read them without a ClickHouse query.
    CHART_RECENT_CHANGES: z.coerce.number().int().positive().default(200_000),
    // Protocol positions of a wallet at a block, kept until a rollback (each a few hundred bytes).
    CHART_PROTOCOL_CACHE_ENTRIES: z.coerce.number().int().positive().default(200_000),
  });

await runGrpcService('chart', parseEnv(serviceAddressEnv).CHART_GRPC_PORT, async ({ logger }) => {
  const config = parseEnv(env);
  const referenceData = createGrpcClient(ReferenceDataClient, config.REFERENCE_DATA_GRPC_ADDRESS);
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID ?? 'chart',
    logger,
    consumerSessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  });
  const changes = connectChangeVersions(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    onError: (error) => logger.warn({ err: error }, 'redis error'),
  });
  const clickhouse = createClickHouse({
    url: config.CLICKHOUSE_URL,
    database: config.CLICKHOUSE_DATABASE,
    username: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
  });
  const positions = createGrpcClient(PositionsClient, config.POSITIONS_GRPC_ADDRESS);
  // The rollback token alone: day sums, recent changes, block times and protocol positions at a
  // block hold amounts, not values, so a price move (every block on a live chain) must not drop them.
  const everything = async () => (await changes.versions.everythingAndPrices()).everything;
  const store = createChartStore({
    clickhouse,
    logger,
    storeEveryMs: config.CHART_STORE_INTERVAL_MS,
    everything,
    maxRecentChanges: config.CHART_RECENT_CHANGES,
  });
  const clock = createBlockClock({ clickhouse, logger, storeEveryMs: config.CHART_STORE_INTERVAL_MS, everything });
  const consumer = createChartConsumer({
    kafka,
    store,
    clock,
    tracking: createWalletTracking(referenceData),
    versions: changes.versions,
    logger,
    topics: platformTopics(config.KAFKA_TOPIC_SUFFIX),
    groupId: consumerGroup('chart', config.KAFKA_TOPIC_SUFFIX),
  });
  await consumer.start();

  return {
    services: [
      chartService({
        store,
        clock,
        changes: createChangesMemo({ store, versions: changes.versions, maxEntries: config.CHART_CHANGES_CACHE_ENTRIES }),
        valuation: createChartValuation({
          referenceData,
          tokens: createTokenDirectory(referenceData),
          cache: createPointPriceCache({
            versions: changes.versions,
            settleSeconds: config.CHART_PRICE_SETTLE_SECONDS,
            maxEntries: config.CHART_PRICE_CACHE_ENTRIES,
          }),
        }),
        protocols: createProtocolSeries({ positions, clock, everything, maxEntries: config.CHART_PROTOCOL_CACHE_ENTRIES }),
      }),
    ],
    closers: [
      { name: 'kafka consumers', close: () => consumer.stop() },
      { name: 'clickhouse', close: () => clickhouse.close() },
      { name: 'redis', close: async () => changes.close() },
      { name: 'reference-data client', close: async () => referenceData.close() },
      { name: 'positions client', close: async () => positions.close() },
    ],
  };
});
