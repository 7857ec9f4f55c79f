import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createPublicClient, http, type Address } from 'viem';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import {
  setupChangeVersions,
  setupClickHouseDatabase,
  setupPostgresDatabase,
  testConfig,
  testLogger,
  uniqueName,
  type ClickHouseDatabase,
  type PostgresDatabase,
} from '@wallet-api/core/testing';
import { createWalletApiClient } from '../../../clients/typescript/src/index.js';
import { readManifest } from '../../../devnet/src/manifest/index.js';
import { loadChainsConfig, rpcOverrideVariable } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createReferenceDataDomain } from '../../reference-data/src/domain.js';
import { createFungibleListFor } from '../../reference-data/src/fungibles/fungible-list-service.js';
import { createGasTrackers } from '../../reference-data/src/gas/gas-trackers.js';
import type { GasTracker } from '../../reference-data/src/gas/gas-tracker.js';
import { dappsService } from '../../reference-data/src/grpc/dapps-service.js';
import { fungibleChartsServiceOver } from '../../reference-data/src/grpc/fungible-charts-service.js';
import { fungiblesService } from '../../reference-data/src/grpc/fungibles-service.js';
import { gasService } from '../../reference-data/src/grpc/gas-service.js';
import { swapService } from '../../reference-data/src/grpc/swap-service.js';
import { createSwapQuoter, swapClients } from '../../reference-data/src/swap/swap-quoter.js';
import { loadFxTable } from '../../reference-data/src/prices/currencies.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { loadRegistryConfig } from '../../reference-data/src/registry/registry-config.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';
import { callbackUrl, calls, publicUrl, type World } from './api-client-calls.js';
import { certificatePem, startSubscriptionService, type RunningSubscriptionService } from './setup-tx-subscriptions-gateway.js';

// Every endpoint of the served OpenAPI document called through the typed client
// (@wallet-api/client, generated from that document), each asserting its status and what its body
// says. The gateway runs over the real reference-data services (chains, the tokens of the devnet's
// registry, the fungibles list, fungible charts, dapps, gas prices and swap quotes of the ethereum
// anvil; databases of its own, no prices indexed) and the real subscription service. Chains, gas
// prices, tokens and swap routes are held against the devnet's ethereum anvil, dapps against the
// registry file.
//
// Adding an endpoint is one entry in `calls` (api-client-calls.ts): the last test fails while the
// served document has an operation no entry calls, so document and server cannot drift apart.
//
// Endpoints whose services this gateway does not start (wallet data and NFTs, which need indexed
// chains: their own tests start them) are `refusedAtTheGateway` entries for now: a real round trip
// through the client and gateway answered by the route's own validation, 400 with a detail naming
// the parameter. Their calls with data go through the same client in the tests that start those
// services (each entry names its file).

const referenceConfig = new URL('../../reference-data/config/', import.meta.url).pathname;
const devnetRegistry = new URL('../../../.data/devnet/registry.json', import.meta.url).pathname;
const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

const prisma = createPrisma(testConfig().DATABASE_URL);
const redis = new Redis(testConfig().REDIS_URL);
let subscriptions: RunningSubscriptionService;
let referenceGrpc: GrpcServer;
let gasTrackers: Map<string, GasTracker>;
let database: PostgresDatabase;
let clickhouse: ClickHouseDatabase;
const changes = setupChangeVersions();
let backends: Backends;
let server: Server;
let baseUrl: string;
let certificateDir: string;
let world: World;

beforeAll(async () => {
  const manifest = await readManifest();
  const ethereumWorld = manifest.chains.find((chain) => chain.id === 'ethereum')!;
  const registry = await loadRegistryConfig([`${referenceConfig}registry.json`, devnetRegistry]);
  // A token the devnet deployed and only its registry lists (the shipped one names mainnet contracts).
  const shipped = new Set((await loadRegistryConfig([`${referenceConfig}registry.json`])).tokens.map((candidate) => candidate.fungible_id));
  const devnetToken = (await loadRegistryConfig([devnetRegistry])).tokens.find(
    (candidate) => !shipped.has(candidate.fungible_id) && candidate.implementations.some((implementation) => implementation.chain_id === 'ethereum'),
  )!;
  const token = {
    fungibleId: devnetToken.fungible_id,
    address: devnetToken.implementations.find((implementation) => implementation.chain_id === 'ethereum')!.address as Address,
  };
  const suffix = uniqueName('api_client');
  database = await setupPostgresDatabase(suffix);
  clickhouse = await setupClickHouseDatabase(suffix);
  const chainConfigs = await loadChainsConfig(`${referenceConfig}chains.json`, { [rpcOverrideVariable('ethereum')]: ethereumWorld.rpcUrl });
  const chains = createChainRegistry(chainConfigs);
  const fx = await loadFxTable(`${referenceConfig}fx-rates.json`);
  const domain = createReferenceDataDomain({
    chains: chainConfigs,
    registry,
    prisma: database.prisma,
    logger: testLogger,
    prices: { clickhouse: clickhouse.clickhouse, fx, versions: changes.versions, currencyChainId: 'ethereum' },
  });
  const fungibles = createFungibleListFor({
    chains: chainConfigs,
    registryConfig: registry,
    registry: domain.registry,
    catalog: domain.fungibles!,
    prisma: database.prisma,
    logger: testLogger,
  });
  // Gas prices of the one chain whose anvil this test reads.
  gasTrackers = createGasTrackers(
    chainConfigs.filter((chain) => chain.id === 'ethereum'),
    { intervalMs: 500, logger: testLogger },
  );
  for (const tracker of gasTrackers.values()) tracker.start();
  referenceGrpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      referenceDataService(chains, domain),
      fungiblesService(fungibles),
      fungibleChartsServiceOver({ chains: chainConfigs, domain, clickhouse: clickhouse.clickhouse, versions: changes.versions }),
      dappsService(registry.dapps),
      gasService(chains, gasTrackers),
      // Quotes read the ethereum anvil only: the other chains' RPC URLs are the shipped public ones.
      swapService(
        createSwapQuoter({
          chains: chainConfigs,
          registry: domain.registry,
          tokens: registry.tokens,
          clients: swapClients(chainConfigs.filter((chain) => chain.id === 'ethereum')),
          ...(domain.prices ? { prices: domain.prices } : {}),
        }),
      ),
    ],
    logger: testLogger,
  });
  subscriptions = await startSubscriptionService();
  const referenceData = `127.0.0.1:${referenceGrpc.port}`;
  backends = createBackends({ referenceData, indexer: '127.0.0.1:1', positions: '127.0.0.1:1', subscription: subscriptions.address });
  certificateDir = await mkdtemp(join(tmpdir(), 'api-client-certificate-'));
  await writeFile(join(certificateDir, 'certificate.pem'), certificatePem);
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl,
    rateLimits: { perSecond: 1000, burst: 1000 },
    logger: testLogger,
    checkResponses: true,
    webhookCertificateFile: join(certificateDir, 'certificate.pem'),
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('client'), roles: [], addons: [] });
  const client = createWalletApiClient({ baseUrl, apiKey: key });
  const wallet = ethereumWorld.wallets[0]!.address as Address;
  world = {
    client,
    ethereum: createPublicClient({ transport: http(ethereumWorld.rpcUrl), cacheTime: 0 }),
    wallet,
    registry,
    token,
    async subscription() {
      const { data, response } = await client.POST('/v1/tx-subscriptions/', { body: { callback_url: callbackUrl, addresses: [wallet] } });
      expect(response.status).toBe(201);
      return data!.data.id;
    },
  };
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  backends.close();
  await referenceGrpc.shutdown(1_000);
  await Promise.all([...gasTrackers.values()].map((tracker) => tracker.stop()));
  await database.drop();
  await clickhouse.drop();
  await changes.close();
  await subscriptions.stop();
  redis.disconnect();
  await prisma.$disconnect();
  await rm(certificateDir, { recursive: true, force: true });
});

test.each(Object.keys(calls))('%s through the typed client', async (operation) => {
  await calls[operation]!(world);
});

test('the client sends the key as HTTP Basic username: a wrong key is refused with 401', async () => {
  const stranger = createWalletApiClient({ baseUrl, apiKey: 'wak_not-a-real-key' });
  const { error, response } = await stranger.GET('/v1/chains/');
  expect(response.status).toBe(401);
  expect(error).toEqual({ errors: [{ title: 'Unauthorized Error', detail: 'the API key is invalid' }] });
});

test('every operation of the served document is called above, and nothing else', async () => {
  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Partial<Record<(typeof methods)[number], unknown>>> };
  const served = Object.entries(document.paths).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(Object.keys(calls).sort()).toEqual(served.sort());
});
