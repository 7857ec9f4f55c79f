import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { startTelemetry, type Telemetry } from '@wallet-api/core/telemetry';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';

// Response bodies are checked field by field below, so they are read untyped.
const json = (response: Response): Promise<any> => response.json();

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url);
const publicUrl = 'https://api.wallet.test';

interface ChainFileEntry {
  id: string;
  name: string;
  network: 'mainnet' | 'testnet';
  family: 'evm' | 'solana';
  /** EVM chains only; the external id is then its hex form unless `external_id` says otherwise. */
  evm_chain_id?: number;
  external_id?: string;
  flags: Record<string, boolean>;
  native_fungible_id: string;
  wrapped_native_fungible_id?: string | null;
}

describe('gateway chains endpoints end to end through gRPC', () => {
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const spans = new InMemorySpanExporter();
  let telemetry: Telemetry;
  let grpc: GrpcServer;
  let backends: Backends;
  let server: Server;
  let baseUrl: string;
  let key: string;
  let throttledKey: string;
  let declared: ChainFileEntry[];

  const auth = (apiKey: string) => ({ Authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` });
  const get = (path: string, headers: Record<string, string> = auth(key)) => fetch(`${baseUrl}${path}`, { headers });

  function startGateway(gatewayBackends: Backends): Promise<Server> {
    const app = createApp({
      lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
      redis,
      backends: gatewayBackends,
      publicUrl,
      rateLimits: { perSecond: 1000, burst: 1000 },
      logger: testLogger,
      checkResponses: true,
    });
    return new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
  }

  beforeAll(async () => {
    telemetry = startTelemetry({ serviceName: 'gateway-test', spanProcessors: [new SimpleSpanProcessor(spans)] });
    declared = JSON.parse(await readFile(chainsFile, 'utf8')).chains;
    const registry = createChainRegistry(await loadChainsConfig(chainsFile.pathname, {}));
    grpc = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [referenceDataService(registry)], logger: testLogger });
    backends = createBackends({ referenceData: `127.0.0.1:${grpc.port}`, indexer: `127.0.0.1:${grpc.port}`, positions: `127.0.0.1:${grpc.port}` });
    server = await startGateway(backends);
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ key } = await createOrganizationKey(prisma, { org: uniqueName('org'), roles: ['rwa'], addons: [] }));
    ({ key: throttledKey } = await createOrganizationKey(prisma, {
      org: uniqueName('throttled'),
      roles: [],
      addons: [],
      rateLimitPerSecond: 2,
      rateLimitBurst: 4,
    }));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    backends.close();
    await grpc.shutdown(1_000);
    redis.disconnect();
    await prisma.$disconnect();
    await telemetry.shutdown();
  });

  test('GET /v1/chains/ lists the configured mainnet chains with every flag and absolute links', async () => {
    const response = await get('/v1/chains/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const body = await json(response);
    const mainnets = declared.filter((chain) => chain.network === 'mainnet');
    expect(body.links.self).toBe(`${publicUrl}/v1/chains/`);
    expect(body.data.map((chain: { id: string }) => chain.id)).toEqual(mainnets.map((chain) => chain.id));
    for (const [index, chain] of body.data.entries()) {
      const expected = mainnets[index]!;
      expect(chain.type).toBe('chains');
      expect(chain.attributes.name).toBe(expected.name);
      expect(chain.attributes.external_id).toBe(expected.external_id ?? `0x${expected.evm_chain_id!.toString(16)}`);
      expect(chain.attributes.flags).toEqual(expected.flags);
      expect(Object.keys(chain.attributes.flags).sort()).toEqual([
        'supports_bridge',
        'supports_nft_positions',
        'supports_positions',
        'supports_sending',
        'supports_trading',
        'supports_transactions',
      ]);
      expect(chain.attributes.explorer.token_url_format).toContain('{ADDRESS}');
      expect(chain.attributes.explorer.tx_url_format).toContain('{HASH}');
      expect(chain.relationships.native_fungible).toEqual({
        links: { related: `${publicUrl}/v1/fungibles/${expected.native_fungible_id}` },
        data: { type: 'fungibles', id: expected.native_fungible_id },
      });
      // Solana has no wrapped native fungible configured: the relationship is left out.
      if (expected.wrapped_native_fungible_id)
        expect(chain.relationships.wrapped_native_fungible.data).toEqual({ type: 'fungibles', id: expected.wrapped_native_fungible_id });
      else expect(chain.relationships.wrapped_native_fungible).toBeUndefined();
      expect(chain.links.self).toBe(`${publicUrl}/v1/chains/${expected.id}`);
    }
  });

  test('GET /v1/chains/{chain_id} returns one chain; 404 for unlisted chains, aliases and the other network', async () => {
    const ethereum = await get('/v1/chains/ethereum');
    expect(ethereum.status).toBe(200);
    const body = await json(ethereum);
    expect(body.data.id).toBe('ethereum');
    expect(body.data.attributes.external_id).toBe('0x1');
    expect(body.links.self).toBe(`${publicUrl}/v1/chains/ethereum`);

    for (const path of ['/v1/chains/unknown-chain', '/v1/chains/eth', '/v1/chains/sepolia']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      const error = await json(response);
      expect(error).toEqual({ errors: [{ title: 'Not Found', detail: expect.stringContaining('is not supported') }] });
    }
    expect((await get('/v1/chains/ethereum', { ...auth(key), 'X-Env': 'testnet' })).status).toBe(404);
  });

  test('X-Env: testnet selects the testnet chains', async () => {
    const list = await get('/v1/chains/', { ...auth(key), 'X-Env': 'testnet' });
    expect(list.status).toBe(200);
    const body = await json(list);
    expect(body.data.map((chain: { id: string }) => chain.id)).toEqual(declared.filter((chain) => chain.network === 'testnet').map((chain) => chain.id));
    const sepolia = await get('/v1/chains/sepolia', { ...auth(key), 'X-Env': 'testnet' });
    expect(sepolia.status).toBe(200);
    expect((await json(sepolia)).data.attributes.external_id).toBe('0xaa36a7');
    const solanaDevnet = await get('/v1/chains/solana-devnet', { ...auth(key), 'X-Env': 'testnet' });
    expect(solanaDevnet.status).toBe(200);
    expect((await json(solanaDevnet)).data.attributes).toMatchObject({
      external_id: 'solana-devnet',
      flags: { supports_nft_positions: false, supports_positions: true },
    });
    expect((await get('/v1/chains/solana-devnet')).status).toBe(404);
  });

  test('GET /v1/chains/solana serves the Solana mainnet with its configured external id and native SOL', async () => {
    const response = await get('/v1/chains/solana');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.data.attributes).toMatchObject({
      name: 'Solana',
      external_id: 'solana',
      explorer: { name: 'Solscan', token_url_format: 'https://solscan.io/token/{ADDRESS}', tx_url_format: 'https://solscan.io/tx/{HASH}' },
      flags: {
        supports_trading: false,
        supports_sending: true,
        supports_bridge: false,
        supports_transactions: true,
        supports_positions: true,
        supports_nft_positions: false,
      },
    });
    expect(body.data.relationships.native_fungible.data).toEqual({ type: 'fungibles', id: 'sol' });
  });

  test('401 without a key and with a bad key, in the spec body', async () => {
    const missing = await get('/v1/chains/', {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await json(missing)).toEqual({ errors: [{ title: 'Unauthorized Error', detail: expect.stringContaining('API key is required') }] });

    const bad = await get('/v1/chains/', auth('wak_not-a-real-key'));
    expect(bad.status).toBe(401);
    expect(await json(bad)).toEqual({ errors: [{ title: 'Unauthorized Error', detail: 'the API key is invalid' }] });

    const notBasic = await get('/v1/chains/', { Authorization: 'Bearer something' });
    expect(notBasic.status).toBe(401);

    // One rule (spec 8.1, RFC 7617): the scheme in any case, the key, a colon and no password.
    expect((await get('/v1/chains/', { Authorization: `basic ${Buffer.from(`${key}:`).toString('base64')}` })).status).toBe(200);
    for (const [credentials, problem] of [
      [`${key}:secret`, 'a password was sent'],
      [key, 'the colon is missing'],
    ]) {
      const refused = await get('/v1/chains/', { Authorization: `Basic ${Buffer.from(credentials!).toString('base64')}` });
      expect(refused.status).toBe(401);
      expect((await json(refused)).errors[0].detail).toContain(problem);
    }
  });

  test('400 with a detail naming the malformed parameter', async () => {
    const header = await get('/v1/chains/', { ...auth(key), 'X-Env': 'mainnet' });
    expect(header.status).toBe(400);
    expect(await json(header)).toEqual({ errors: [{ title: 'Parameter is malformed', detail: expect.stringContaining('X-Env') }] });

    const path = await get('/v1/chains/bad$chain!');
    expect(path.status).toBe(400);
    expect((await json(path)).errors[0].detail).toContain('chain_id');

    const encoding = await get('/v1/chains/%E0%A4%A');
    expect(encoding.status).toBe(400);
    const text = await encoding.text();
    expect(text).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
  });

  test('unknown paths answer 404 in the same error shape', async () => {
    const response = await get('/v1/no-such-endpoint');
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ errors: [{ title: 'Not Found', detail: 'no endpoint GET /v1/no-such-endpoint' }] });
    expect((await fetch(`${baseUrl}/elsewhere`)).status).toBe(404);
  });

  test('429 with Retry-After and RateLimit headers after a burst', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => get('/v1/chains/', auth(throttledKey))));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(4);
    const throttled = responses.find((response) => response.status === 429)!;
    expect(throttled).toBeDefined();
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(throttled.headers.get('ratelimit-limit')).toBe('4');
    expect(throttled.headers.get('ratelimit-remaining')).toBe('0');
    expect(await json(throttled)).toEqual({ errors: [{ title: 'Too many requests', detail: expect.stringContaining('rate limit') }] });
    const allowed = responses.find((response) => response.status === 200)!;
    expect(allowed.headers.get('ratelimit-limit')).toBe('4');
  });

  test('the OpenAPI 3.1 document is served without a key and lists the chains endpoints', async () => {
    const response = await fetch(`${baseUrl}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = await json(response);
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/chains/', '/v1/chains/{chain_id}']));
    expect(document.paths['/v1/chains/{chain_id}'].get.responses['404']).toBeDefined();
    expect(document.components.schemas.Chain).toBeDefined();
    expect(document.components.securitySchemes.basicAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'basic' }));
  });

  test('the caller trace context travels from HTTP into the gRPC call', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    // One chain: GetChain is asked on every request (the chain list is held for a few seconds).
    const response = await get('/v1/chains/ethereum', { ...auth(key), traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(response.status).toBe(200);
    const finished = spans.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    const grpcServerSpan = finished.find((span) => span.kind === SpanKind.SERVER && span.name.includes('ReferenceData/GetChain'));
    expect(grpcServerSpan).toBeDefined();
    const gatewaySpan = finished.find((span) => span.kind === SpanKind.SERVER && span.name === 'GET /v1/chains/ethereum');
    expect(gatewaySpan).toBeDefined();
  });

  test('503 with Retry-After when the backend is unavailable', async () => {
    const unreachable = createBackends({ referenceData: '127.0.0.1:1', indexer: '127.0.0.1:1', positions: '127.0.0.1:1' });
    const down = await startGateway(unreachable);
    try {
      const response = await fetch(`http://127.0.0.1:${(down.address() as AddressInfo).port}/v1/chains/`, { headers: auth(key) });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await json(response)).toEqual({ errors: [{ title: 'Service is temporarily unavailable', detail: expect.any(String) }] });
    } finally {
      await new Promise((resolve) => down.close(resolve));
      unreachable.close();
    }
  });
});
