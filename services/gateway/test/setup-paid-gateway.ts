import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import type { FacilitatorClient } from '@x402/core/server';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';
import type { PaymentConfig } from '../src/payments/payment-config.js';

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url);

/** A gateway that takes payments, listening on a free port. */
export interface PaidGateway {
  url: string;
  close(): Promise<void>;
}

/**
 * The x402 tests' setup: reference-data's chains behind gRPC, one key of an organization without
 * roles, and gateways taking payments under `config`. The rate limit is one request a second, so a
 * paid request counted against any limit shows.
 */
export interface PaidGatewaySetup {
  /** The first gateway, started by setupPaidGateway. */
  baseUrl: string;
  keyed(path: string): Promise<Response>;
  /** `path` with a payment in the header `@x402/fetch` sends (PAYMENT-SIGNATURE). */
  paidFetch(path: string, paymentHeader: string): Promise<Response>;
  /** Empties the Redis the gateways use (rate limits, answer caches), as a restarted Redis without persistence is. */
  flushRedis(): Promise<void>;
  /** Another gateway over the same backends, e.g. one that never saw a payment, as after a restart. */
  startGateway(facilitators: FacilitatorClient | FacilitatorClient[]): Promise<PaidGateway>;
  close(): Promise<void>;
}

export async function setupPaidGateway(config: PaymentConfig, facilitators: FacilitatorClient | FacilitatorClient[]): Promise<PaidGatewaySetup> {
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const registry = createChainRegistry(await loadChainsConfig(chainsFile.pathname, {}));
  const grpc: GrpcServer = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [referenceDataService(registry)], logger: testLogger });
  const address = `127.0.0.1:${grpc.port}`;
  const backends: Backends = createBackends({ referenceData: address, indexer: address, positions: address });
  const started: Server[] = [];

  async function startGateway(facilitator: FacilitatorClient | FacilitatorClient[]): Promise<PaidGateway> {
    const app = createApp({
      lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
      redis,
      backends,
      publicUrl: 'https://api.wallet.test',
      rateLimits: { perSecond: 1, burst: 1 },
      logger: testLogger,
      checkResponses: true,
      payments: { config, facilitator },
    });
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    started.push(server);
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  const first = await startGateway(facilitators);
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('x402'), roles: [], addons: [], rateLimitPerSecond: 1000, rateLimitBurst: 1000 });
  return {
    baseUrl: first.url,
    keyed: (path) => fetch(`${first.url}${path}`, { headers: { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } }),
    paidFetch: (path, paymentHeader) => fetch(`${first.url}${path}`, { headers: { 'PAYMENT-SIGNATURE': paymentHeader } }),
    startGateway,
    async flushRedis() {
      await redis.flushdb();
    },
    async close() {
      await Promise.all(started.filter((server) => server.listening).map((server) => new Promise((resolve) => server.close(resolve))));
      backends.close();
      await grpc.shutdown(1_000);
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
