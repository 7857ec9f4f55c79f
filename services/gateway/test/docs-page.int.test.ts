import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { referenceDataService } from '../../reference-data/src/grpc/reference-data-service.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';

// GET /docs in headless Chromium (Debian's, driven by playwright-core): the page lists every tag and
// every operation of the served /v1/openapi.json, its "try it" client sends an authenticated request
// to this gateway and shows the answer, and nothing is fetched from any other host.

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url);
const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;
const prisma = createPrisma(testConfig().DATABASE_URL);
const redis = new Redis(testConfig().REDIS_URL);
let grpc: GrpcServer;
let backends: Backends;
let server: Server;
let baseUrl: string;
let key: string;
let browser: BrowserContext;
let profile: string;

interface Operation {
  method: string;
  path: string;
  summary: string;
  tag: string;
}

/** Every operation of the document the gateway serves, as `GET /v1/chains/` with its summary and tag. */
async function servedOperations(): Promise<Operation[]> {
  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string; tags: string[] }>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods
      .filter((method) => item[method])
      .map((method) => ({ method: method.toUpperCase(), path, summary: item[method]!.summary, tag: item[method]!.tags[0]! })),
  );
}

/** The operations the page lists: each tag section's "Operations" shows a method line, then its path. */
function listedOperations(text: string): Set<string> {
  const lines = text.split('\n').map((line) => line.trim());
  const listed = new Set<string>();
  lines.forEach((line, index) => {
    const next = lines[index + 1] ?? '';
    if (/^(GET|POST|PUT|PATCH|DELETE)$/.test(line) && next.startsWith('/v1/')) listed.add(`${line} ${next}`);
  });
  return listed;
}

/** Opens the page with every request it makes recorded. */
async function openDocs(): Promise<{ page: Page; requests: Request[] }> {
  const page = await browser.newPage();
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await page.goto(`${baseUrl}/docs`);
  await page.getByRole('button', { name: /^(Open|Close) Group - chains$/ }).waitFor();
  return { page, requests };
}

const foreignRequests = (requests: Request[]) => requests.map((request) => request.url()).filter((url) => new URL(url).origin !== baseUrl);

beforeAll(async () => {
  const registry = createChainRegistry(await loadChainsConfig(chainsFile.pathname, {}));
  grpc = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [referenceDataService(registry)], logger: testLogger });
  const address = `127.0.0.1:${grpc.port}`;
  backends = createBackends({ referenceData: address, indexer: address, positions: address });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl: 'https://api.wallet.test',
    rateLimits: { perSecond: 1000, burst: 1000 },
    logger: testLogger,
    checkResponses: true,
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ key } = await createOrganizationKey(prisma, { org: uniqueName('docs'), roles: [], addons: [] }));
  profile = await mkdtemp(join(tmpdir(), 'docs-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
  backends.close();
  await grpc.shutdown(1_000);
  redis.disconnect();
  await prisma.$disconnect();
});

test('the page and its script come from the gateway itself, without a key', async () => {
  const page = await fetch(`${baseUrl}/docs`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).toContain('<script src="/docs/assets/standalone.js"');
  expect(html).toContain('"url": "/v1/openapi.json"');
  expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"'\s]*\.(js|css)\b/);
  const script = await fetch(`${baseUrl}/docs/assets/standalone.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get('content-type')).toMatch(/javascript/);
  // The bundle the package ships, byte for byte.
  const shipped = await readFile(new URL('browser/standalone.js', new URL('.', import.meta.resolve('@scalar/api-reference'))));
  expect(Buffer.from(await script.arrayBuffer()).equals(shipped)).toBe(true);
  const missing = await fetch(`${baseUrl}/docs/assets/no-such-file.js`);
  expect(missing.status).toBe(404);
});

test('every tag and every operation of /v1/openapi.json is listed on the page, and nothing comes from another host', async () => {
  const operations = await servedOperations();
  const tags = [...new Set(operations.map((operation) => operation.tag))];
  expect(operations.length).toBeGreaterThan(2);
  const { page, requests } = await openDocs();
  // Each tag is a sidebar group; opening all of them shows every operation's summary.
  const closed = page.getByRole('button', { name: /^Open Group - / });
  while ((await closed.count()) > 0) await closed.first().click();
  for (const tag of tags) await expect(page.getByRole('button', { name: `Close Group - ${tag}` }).count()).resolves.toBe(1);
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text, which is what a reader sees
  const sidebar = await page.locator('aside, nav').first().innerText();
  for (const operation of operations) expect(sidebar).toContain(operation.summary);
  // The tag sections render as they scroll into view: scroll until every one has listed its operations.
  const expected = new Set(operations.map((operation) => `${operation.method} ${operation.path}`));
  let listed = new Set<string>();
  for (let attempt = 0; attempt < 40 && listed.size < expected.size; attempt += 1) {
    await page.mouse.wheel(0, 5_000);
    await page.waitForTimeout(250);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text, which is what a reader sees
    listed = listedOperations(await page.innerText('body'));
  }
  expect([...listed].sort()).toEqual([...expected].sort());
  expect(requests.map((request) => new URL(request.url()).pathname)).toEqual(
    expect.arrayContaining(['/docs', '/docs/assets/standalone.js', '/v1/openapi.json']),
  );
  expect(foreignRequests(requests)).toEqual([]);
  await page.close();
}, 120_000);

test('"try it": GET /v1/chains/ with a key typed into the page answers 200, shown in the page', async () => {
  const mainnets = JSON.parse(await readFile(chainsFile, 'utf8')).chains.filter((chain: { network: string }) => chain.network === 'mainnet');
  const { page, requests } = await openDocs();
  await page.getByRole('combobox', { name: 'Username' }).first().click();
  await page.keyboard.type(key);
  await page.getByRole('button', { name: 'Test Request (get /v1/chains/)' }).click();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/chains/');
  await page.getByRole('button', { name: /^Send/ }).first().click();
  const response = await answered;
  // The page sent the key as the API expects it (username, empty password) to this gateway.
  expect(response.status()).toBe(200);
  expect(new URL(response.url()).origin).toBe(baseUrl);
  expect(await response.request().headerValue('authorization')).toBe(`Basic ${Buffer.from(`${key}:`).toString('base64')}`);
  expect((await response.json()).data.map((chain: { id: string }) => chain.id)).toEqual(mainnets.map((chain: { id: string }) => chain.id));
  // And the page shows that answer: its status and the first configured chain in the body.
  await page.getByText('200 OK', { exact: true }).waitFor();
  await page.getByText(`"${mainnets[0].name}"`).first().waitFor();
  expect(foreignRequests(requests)).toEqual([]);
  await page.close();
}, 120_000);
