import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type ServiceRegistration } from '@wallet-api/core/grpc';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends } from '../src/grpc/backends.js';

export const publicUrl = 'https://api.wallet.test';

export interface ReferenceGateway {
  /** GET with the test organization's key, plus `headers`. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * The gateway in front of one gRPC server hosting `services` (reference-data's, as its process
 * hosts them), every backend at that address, responses checked against their schemas.
 */
export async function startReferenceGateway(services: ServiceRegistration[]): Promise<ReferenceGateway> {
  const grpc = await startGrpcServer({ host: '127.0.0.1', port: 0, services, logger: testLogger });
  const address = `127.0.0.1:${grpc.port}`;
  const backends = createBackends({ referenceData: address, indexer: address, positions: address });
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl,
    rateLimits: { perSecond: 1000, burst: 1000 },
    logger: testLogger,
    checkResponses: true,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('org'), roles: [], addons: [] });
  const auth = { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
  return {
    get: (path, headers = {}) => fetch(`${baseUrl}${path}`, { headers: { ...auth, ...headers } }),
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      backends.close();
      await grpc.shutdown(1_000);
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
