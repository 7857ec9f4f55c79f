import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createPrisma, type PrismaClient } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { createCallbackUrlGuard, parseAllowList } from '@wallet-api/core/outbound';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { subscriptionService } from '../../subscription/src/grpc/subscription-service.js';
import { createSecretBox } from '../../subscription/src/secrets/secret-box.js';
import { createDeliveryLogStore } from '../../subscription/src/store/delivery-log-store.js';
import { createSubscriptionStore } from '../../subscription/src/store/subscription-store.js';
import { createApp, type GatewayDependencies } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends } from '../src/grpc/backends.js';

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url);

export const publicUrl = 'https://api.wallet.test';

/** A PEM the certificate endpoint serves byte for byte (its content is not parsed). */
export const certificatePem = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n';

export interface RunningSubscriptionService {
  address: string;
  /** The service's database (the gateway's test database), e.g. to seed deliveries. */
  prisma: PrismaClient;
  stop(): Promise<void>;
}

/**
 * The subscription gRPC service over the test PostgreSQL database, as its main wires it: callback
 * URLs checked against an allow-list of loopback only, signing secrets sealed with a fresh key,
 * rotated-out secrets signing for 24 hours.
 */
export async function startSubscriptionService(): Promise<RunningSubscriptionService> {
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: [
      subscriptionService({
        store: createSubscriptionStore(prisma),
        deliveries: createDeliveryLogStore(prisma),
        callbackUrls: createCallbackUrlGuard({ allow: parseAllowList('loopback') }),
        secrets: createSecretBox(randomBytes(32).toString('base64')),
        rotationOverlapMs: 24 * 60 * 60 * 1000,
        logger: testLogger,
      }),
    ],
  });
  return {
    address: `127.0.0.1:${server.port}`,
    prisma,
    async stop() {
      await server.shutdown(1_000);
      await prisma.$disconnect();
    },
  };
}

export interface RequestOptions {
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as is, with `contentType` (default `application/json`). */
  raw?: string;
  contentType?: string;
  /** The API key; the first organization's by default, `null` for none. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface TxSubscriptionGateway {
  baseUrl: string;
  /** The first organization's key (the default for `request`) and another organization's. */
  key: string;
  otherKey: string;
  /** The key of a new organization, for a test that needs a subscription list of its own. */
  createKey(): Promise<string>;
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /** Another gateway over the same backends with different dependencies (e.g. no certificate). */
  startVariant(overrides: Partial<GatewayDependencies>): Promise<{ baseUrl: string; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

/**
 * The gateway (real Redis, real PostgreSQL organizations and keys) over the real reference-data
 * service serving the shipped chains plus `legacy`, a mainnet EVM chain that indexes transactions
 * but not positions, and the subscription service at `subscriptionAddress`. The webhook
 * certificate endpoint serves `certificatePem` from a temporary file.
 */
export async function startTxSubscriptionGateway(options: { subscriptionAddress: string }): Promise<TxSubscriptionGateway> {
  const shipped = await loadChainsConfig(chainsFile.pathname, {});
  const ethereum = shipped.find((chain) => chain.id === 'ethereum')!;
  const legacy = { ...ethereum, id: 'legacy', name: 'Legacy', evm_chain_id: 999_001, flags: { ...ethereum.flags, supports_positions: false } };
  const referenceData: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [referenceDataService(createChainRegistry([...shipped, legacy]))],
    logger: testLogger,
  });
  const backends = createBackends({
    referenceData: `127.0.0.1:${referenceData.port}`,
    indexer: '127.0.0.1:1',
    positions: '127.0.0.1:1',
    subscription: options.subscriptionAddress,
  });
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const certificateDir = await mkdtemp(join(tmpdir(), 'webhook-certificate-'));
  const certificateFile = join(certificateDir, 'certificate.pem');
  await writeFile(certificateFile, certificatePem);

  async function listen(overrides: Partial<GatewayDependencies>) {
    const app = createApp({
      lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
      redis,
      backends,
      publicUrl,
      rateLimits: { perSecond: 1000, burst: 1000 },
      logger: testLogger,
      checkResponses: true,
      webhookCertificateFile: certificateFile,
      ...overrides,
    });
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    return {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  const gateway = await listen({});
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('subscriber'), roles: [], addons: [] });
  const { key: otherKey } = await createOrganizationKey(prisma, { org: uniqueName('other_subscriber'), roles: [], addons: [] });
  const basic = (apiKey: string) => `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;

  return {
    baseUrl: gateway.baseUrl,
    key,
    otherKey,
    createKey: async () => (await createOrganizationKey(prisma, { org: uniqueName('subscriber'), roles: [], addons: [] })).key,
    request(method, path, { json, raw, contentType, key: apiKey = key, headers = {} } = {}) {
      const body = json !== undefined ? JSON.stringify(json) : raw;
      return fetch(`${gateway.baseUrl}${path}`, {
        method,
        headers: {
          ...(apiKey === null ? {} : { Authorization: basic(apiKey) }),
          ...(body !== undefined ? { 'Content-Type': contentType ?? 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body } : {}),
      });
    },
    startVariant: listen,
    async stop() {
      await gateway.stop();
      backends.close();
      await referenceData.shutdown(1_000);
      redis.disconnect();
      await prisma.$disconnect();
      await rm(certificateDir, { recursive: true, force: true });
    },
  };
}
