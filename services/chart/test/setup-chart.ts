import type { ChangeVersions } from '@wallet-api/core/cache';
import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import type { TopicSpec } from '@wallet-api/core/kafka';
import { ChartClient, GetWalletChartRequest, type WalletChart } from '@wallet-api/core/proto/chart';
import type { BalanceChange, ChainBlock, ChainRollback } from '@wallet-api/core/proto/events';
import { PositionsClient } from '@wallet-api/core/proto/positions';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory, createWalletTracking, type WalletTracking } from '@wallet-api/core/reference-data';
import { setupChangeVersions, setupClickHouseDatabase, setupKafka, testLogger, uniqueName, type ClickHouseDatabase } from '@wallet-api/core/testing';
import { createChartConsumer, type ChartConsumer } from '../src/consume/chart-consumer.js';
import { chartService } from '../src/grpc/chart-service.js';
import { createChangesMemo } from '../src/series/changes-memo.js';
import { createChartValuation } from '../src/prices/chart-valuation.js';
import { createPointPriceCache } from '@wallet-api/core/reference-data';
import { createProtocolSeries } from '../src/protocols/protocol-series.js';
import { createBlockClock } from '../src/store/block-clock.js';
import { createChartStore, type ChartStore } from '../src/store/chart-store.js';

/**
 * The chart service, real and in one process: its consumers on the given topics (a harness's),
 * a ClickHouse database of its own with every migration, reference-data at `referenceData`, and
 * its gRPC server. `storeEveryMs` decides how long rows wait in memory before their INSERT.
 */
export interface ChartHarness {
  clickhouse: ClickHouseDatabase;
  store: ChartStore;
  consumer: ChartConsumer;
  /** The consumer groups' prefix: `<groupId>.balance-changes`, `<groupId>.blocks` and `<groupId>.rollbacks`. */
  groupId: string;
  /** host:port of the gRPC server, for a gateway. */
  address: string;
  chart(request: Partial<GetWalletChartRequest> & { addresses: string[]; chainIds: string[]; period: string }): Promise<WalletChart>;
  close(): Promise<void>;
}

export interface ChartHarnessOptions {
  topics: { balanceChanges: TopicSpec<BalanceChange>; chainRollbacks: TopicSpec<ChainRollback>; chainBlocks: TopicSpec<ChainBlock> };
  /** host:port of a positions service, for charts of protocol positions. */
  positionsAddress?: string;
  referenceData: ReferenceDataClient;
  /** Change tokens the consumer marks (a harness's key space). */
  versions?: ChangeVersions;
  storeEveryMs: number;
  /** Which wallets are charted; reference-data's verdicts unless given. */
  tracking?: WalletTracking;
  now?: () => number;
}

export async function startChartHarness(options: ChartHarnessOptions): Promise<ChartHarness> {
  const name = uniqueName('chart');
  const clickhouse = await setupClickHouseDatabase(name);
  const own = options.versions ? undefined : setupChangeVersions();
  const versions = options.versions ?? own!.versions;
  const everything = () => versions.everything();
  const store = createChartStore({
    clickhouse: clickhouse.clickhouse,
    logger: testLogger,
    storeEveryMs: options.storeEveryMs,
    everything,
    ...(options.now ? { now: options.now } : {}),
  });
  const clock = createBlockClock({ clickhouse: clickhouse.clickhouse, logger: testLogger, storeEveryMs: options.storeEveryMs, everything });
  // Without a positions service, a chart of protocol positions fails (nothing listens on port 1).
  const positions = createGrpcClient(PositionsClient, options.positionsAddress ?? '127.0.0.1:1');
  const kafka = setupKafka('chart-test');
  const consumer = createChartConsumer({
    kafka,
    store,
    clock,
    tracking: options.tracking ?? createWalletTracking(options.referenceData),
    versions,
    logger: testLogger,
    groupId: name,
    topics: options.topics,
    maxDelayMs: 200,
  });
  await consumer.start();
  const server: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      chartService({
        store,
        clock,
        changes: createChangesMemo({ store, versions, maxEntries: 10_000 }),
        valuation: createChartValuation({
          referenceData: options.referenceData,
          tokens: createTokenDirectory(options.referenceData),
          cache: createPointPriceCache({ versions, settleSeconds: 600, maxEntries: 100_000 }),
        }),
        protocols: createProtocolSeries({ positions, clock, everything }),
        ...(options.now ? { now: options.now } : {}),
      }),
    ],
    logger: testLogger,
  });
  const address = `127.0.0.1:${server.port}`;
  const client = createGrpcClient(ChartClient, address);
  return {
    clickhouse,
    store,
    consumer,
    groupId: name,
    address,
    chart: (request) =>
      unary(client, client.getWalletChart, GetWalletChartRequest.fromPartial({ currency: 'usd', ...request }), { name: 'Chart/GetWalletChart' }),
    async close() {
      client.close();
      positions.close();
      await server.shutdown(1_000);
      await consumer.stop();
      await clickhouse.drop();
      await own?.close();
    },
  };
}
