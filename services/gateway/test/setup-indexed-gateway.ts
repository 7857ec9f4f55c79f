import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createChangeVersions } from '@wallet-api/core/cache';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { setupClickHouseDatabase, testConfig, testLogger, uniqueName, type ClickHouseDatabase, type setupKafka } from '@wallet-api/core/testing';
import { createTransactionWriter, type TransactionWriter } from '../../indexer/src/consume/transaction-writer.js';
import { indexerService, type IndexerServiceDependencies } from '../../indexer/src/grpc/indexer-service.js';
import type { PositionsHarness } from '../../positions/test/setup-positions.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createResponseCache } from '../src/cache/response-cache.js';
import { createBackends } from '../src/grpc/backends.js';

export const publicUrl = 'https://api.wallet.test';

export interface IndexedGateway {
  /** Where the gateway listens, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** A fresh organization's API key (no roles, no add-ons). */
  key: string;
  /** `Basic base64(key:)`. */
  authorization: string;
  stop(): Promise<void>;
}

/**
 * The gateway as deployed, over what a positions harness indexes: its positions service, the
 * transaction writer folding the harness's topics into a ClickHouse database of its own, the
 * indexer's gRPC over that history, the response cache, and a key of a fresh organization. `name`
 * prefixes the databases, consumer group and organization.
 */
export async function startIndexedGateway(
  harness: PositionsHarness,
  options: {
    kafka: ReturnType<typeof setupKafka>;
    positionsAddress: string;
    name: string;
    /** The indexer's snapshot sources (`include_pending`); none unless given. */
    snapshots?: Pick<IndexerServiceDependencies, 'pending' | 'unsigned'>;
    /** How long a cached answer may serve without a change token moving (the gateway's 60 s unless given). */
    answerMaxAgeMs?: number;
  },
): Promise<IndexedGateway> {
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const history: ClickHouseDatabase = await setupClickHouseDatabase(uniqueName(options.name.replaceAll('-', '_')));
  const writer: TransactionWriter = createTransactionWriter({
    kafka: options.kafka,
    clickhouse: history.clickhouse,
    referenceData: harness.referenceData,
    versions: harness.changes.versions,
    logger: testLogger,
    topics: harness.topics,
    groupId: uniqueName(`${options.name}-writer`),
  });
  await writer.start();
  const indexerGrpc: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [indexerService({ clickhouse: history.clickhouse, referenceData: harness.referenceData, ...options.snapshots })],
    logger: testLogger,
  });
  const backends = createBackends({
    referenceData: harness.referenceDataAddress,
    indexer: `127.0.0.1:${indexerGrpc.port}`,
    positions: options.positionsAddress,
  });
  const changes = createChangeVersions(redis, { keyPrefix: harness.changes.keyPrefix });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl,
    rateLimits: { perSecond: 100_000, burst: 100_000 },
    logger: testLogger,
    checkResponses: true,
    changes,
    responseCache: createResponseCache({ versions: changes, logger: testLogger, maxBytes: 16 * 1024 * 1024, maxAgeMs: options.answerMaxAgeMs ?? 60_000 }),
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { key } = await createOrganizationKey(prisma, { org: uniqueName(options.name), roles: [], addons: [] });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      backends.close();
      await writer.stop();
      await indexerGrpc.shutdown(1_000);
      await history.drop();
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
