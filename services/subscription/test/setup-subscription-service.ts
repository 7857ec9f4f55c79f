import { randomBytes, randomUUID } from 'node:crypto';
import type { ServiceError } from '@grpc/grpc-js';
import type { PrismaClient } from '@wallet-api/core/db';
import { createGrpcClient, startGrpcServer, unary } from '@wallet-api/core/grpc';
import { createCallbackUrlGuard, parseAllowList } from '@wallet-api/core/outbound';
import { Network, type RequestContext } from '@wallet-api/core/proto/common';
import { SubscriptionClient } from '@wallet-api/core/proto/subscription';
import { setupPostgresDatabase, testLogger, uniqueName, type PostgresDatabase } from '@wallet-api/core/testing';
import { subscriptionService } from '../src/grpc/subscription-service.js';
import { createSecretBox, type SecretBox } from '../src/secrets/secret-box.js';
import { createDeliveryLogStore, type DeliveryLogStore } from '../src/store/delivery-log-store.js';
import { createSubscriptionStore, type SubscriptionStore } from '../src/store/subscription-store.js';

type Method<Req, Res> = (request: Req, metadata: any, options: any, callback: (error: ServiceError | null, response: Res) => void) => any;

/**
 * The subscription gRPC service over a PostgreSQL database of the harness's own (every migration
 * applied), served on a real port and called through a real client. Callback URLs are checked by
 * the real guard with loopback allow-listed, as in local development; the clock is the harness's.
 */
export interface SubscriptionHarness {
  database: PostgresDatabase;
  prisma: PrismaClient;
  store: SubscriptionStore;
  deliveries: DeliveryLogStore;
  secrets: SecretBox;
  client: SubscriptionClient;
  /** Calls a method of `client`: `call(client.getSubscription, request)`. */
  call<Req, Res>(method: Method<Req, Res>, request: Req): Promise<Res>;
  /** The gRPC error a call fails with (and fails the test when it succeeds). */
  failure<Req, Res>(method: Method<Req, Res>, request: Req): Promise<{ code: number; details: string }>;
  /** What the service's clock answers; tests move it. */
  clock: { now: Date };
  readonly rotationOverlapMs: number;
  /** How often onChange and onRetry were called. */
  readonly notified: { changes: number; retries: number };
  close(): Promise<void>;
}

export const rotationOverlapMs = 24 * 60 * 60 * 1000;

/** A request context of an organization (a fresh one unless given). */
export function contextOf(organizationId: string = randomUUID(), options: { addons?: string[]; network?: Network } = {}): RequestContext {
  return { organizationId, roles: [], addons: options.addons ?? [], network: options.network ?? Network.NETWORK_MAINNET };
}

/** A random EVM address in mixed case, as a client may send it. */
export function evmAddress(): string {
  const hex = randomBytes(20).toString('hex');
  return `0x${[...hex].map((char, at) => (at % 2 === 0 ? char.toUpperCase() : char)).join('')}`;
}

export async function startSubscriptionHarness(): Promise<SubscriptionHarness> {
  const database = await setupPostgresDatabase(uniqueName('subscription'));
  const prisma = database.prisma;
  const store = createSubscriptionStore(prisma);
  const deliveries = createDeliveryLogStore(prisma);
  const secrets = createSecretBox(randomBytes(32).toString('base64'));
  const clock = { now: new Date('2026-11-24T12:00:00.000Z') };
  const notified = { changes: 0, retries: 0 };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      subscriptionService({
        store,
        deliveries,
        callbackUrls: createCallbackUrlGuard({ allow: parseAllowList('loopback') }),
        secrets,
        rotationOverlapMs,
        onChange: () => void (notified.changes += 1),
        onRetry: () => void (notified.retries += 1),
        now: () => clock.now,
        logger: testLogger,
      }),
    ],
    logger: testLogger,
  });
  const client = createGrpcClient(SubscriptionClient, `127.0.0.1:${server.port}`);
  const call = <Req, Res>(method: Method<Req, Res>, request: Req) => unary(client, method, request, { deadlineMs: 60_000 });
  return {
    database,
    prisma,
    store,
    deliveries,
    secrets,
    client,
    call,
    async failure(method, request) {
      try {
        await call(method, request);
      } catch (error) {
        const { code, details } = error as ServiceError;
        return { code, details };
      }
      throw new Error(`${method.name} succeeded where a failure was expected`);
    },
    clock,
    rotationOverlapMs,
    notified,
    async close() {
      client.close();
      await server.shutdown(5_000);
      await database.drop();
    },
  };
}
