import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowList, type ResolveHost } from '@wallet-api/core/outbound';
import { createMetadataFetcher, type MetadataFetcher, type MetadataFetcherOptions } from '../src/metadata/metadata-fetcher.js';

/**
 * The fetcher against real HTTP servers on loopback: the guard, the pinned connections,
 * redirects, the deadline and the size cap all run as in production, with loopback allow-listed
 * as an operator would allow-list a private gateway.
 */

const MB = 1024 * 1024;
const tokenId = 0x1a2bn;
const tokenHex = tokenId.toString(16).padStart(64, '0');
const svg = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>';
const hosted = { name: 'Hosted #1', description: 'Served over http', image: 'ipfs://QmImage/1.png', attributes: [{ trait_type: 'Eyes', value: 'Laser' }] };

type Handler = (res: ServerResponse, req: IncomingMessage) => void;
const json =
  (body: unknown, type = 'application/json'): Handler =>
  (res) =>
    res.writeHead(200, { 'content-type': type }).end(JSON.stringify(body));

const routes: Record<string, Handler> = {
  '/token/1.json': json(hosted),
  '/token/plain': json(hosted, 'text/plain; charset=utf-8'),
  '/token/untyped': (res) => res.writeHead(200).end(JSON.stringify(hosted)),
  [`/erc1155/${tokenHex}.json`]: json({ name: `Token ${tokenHex}` }),
  '/ipfs/QmMetadata/7.json': json({ name: 'From IPFS', image: 'ipfs://QmMetadata/7.png' }),
  '/missing': (res) => res.writeHead(404).end('not found'),
  '/error': (res) => res.writeHead(500).end('oops'),
  '/throttled': (res) => res.writeHead(429).end(),
  '/slow': (res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 2_000).unref(),
  '/slow-body': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).write('{"name":');
    setTimeout(() => res.end('"late"}'), 2_000).unref();
  },
  '/huge': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"name":"${'x'.repeat(5 * MB)}"}`),
  '/huge-chunked': (res) => streamChunked(res, 5 * MB),
  '/image': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(1024)),
  '/html': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
  '/not-json': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":'),
  '/redirect-relative': (res) => res.writeHead(302, { location: '/token/1.json' }).end(),
  '/redirect-named': (res) => res.writeHead(301, { location: `http://nft-metadata.test:${port}/token/1.json` }).end(),
  '/redirect-private': (res) => res.writeHead(302, { location: 'http://10.1.2.3/x' }).end(),
  '/redirect-cloud-metadata': (res) => res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/redirect-internal-name': (res) => res.writeHead(302, { location: 'http://internal.test/x' }).end(),
  '/redirect-file': (res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  '/redirect-loop': (res) => res.writeHead(302, { location: '/redirect-loop' }).end(),
};

// Names the fetcher resolves through its injected lookup, never the system resolver.
const dns: Record<string, string[]> = {
  'nft-metadata.test': ['127.0.0.1'],
  'internal.test': ['10.0.0.5'],
};
const lookup: ResolveHost = async (host) => {
  const answers = dns[host];
  if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: 4 }));
};

/** A body sent in chunks without a length, so only counting what arrives can stop it. */
function streamChunked(res: ServerResponse, total: number): void {
  res.writeHead(200, { 'content-type': 'application/json' }).write('{"name":"');
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"}');
  };
  pump();
}

let port = 0;
const server: Server = createServer((req, res) => {
  requested.push(req.url ?? '');
  (routes[req.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res, req);
});
const requested: string[] = [];
// Every connection undici opens, by the host it dials: a refused hop must never get here.
const dialled: string[] = [];
const onBeforeConnect = (message: unknown) => dialled.push((message as { connectParams: { hostname: string } }).connectParams.hostname);

const fetchers: MetadataFetcher[] = [];
function setupFetcher(overrides: Partial<MetadataFetcherOptions> = {}): MetadataFetcher {
  const fetcher = createMetadataFetcher({
    ipfsGateway: `http://127.0.0.1:${port}/ipfs/`,
    allow: parseAllowList('loopback'),
    timeoutMs: 5_000,
    maxBytes: MB,
    lookup,
    ...overrides,
  });
  fetchers.push(fetcher);
  return fetcher;
}

const base = () => `http://127.0.0.1:${port}`;
const dataJson = (body: unknown) => `data:application/json;base64,${Buffer.from(JSON.stringify(body)).toString('base64')}`;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  subscribe('undici:client:beforeConnect', onBeforeConnect);
});

afterAll(async () => {
  unsubscribe('undici:client:beforeConnect', onBeforeConnect);
  await Promise.all(fetchers.map((fetcher) => fetcher.close()));
  server.closeAllConnections();
  server.close();
});

describe('createMetadataFetcher', () => {
  let fetcher: MetadataFetcher;
  beforeAll(() => {
    fetcher = setupFetcher();
  });

  describe('data: URIs', () => {
    it('reads base64 JSON', async () => {
      const outcome = await fetcher.fetch(dataJson({ name: 'On chain', description: 'base64' }), tokenId);
      expect(outcome).toEqual({ kind: 'fetched', metadata: expect.objectContaining({ name: 'On chain', description: 'base64' }) });
    });

    it('reads utf8 JSON, raw and percent-encoded', async () => {
      const raw = await fetcher.fetch('data:application/json;utf8,{"name":"100% on chain","attributes":{"Level":3}}', tokenId);
      expect(raw).toEqual({ kind: 'fetched', metadata: expect.objectContaining({ name: '100% on chain', attributes: [{ key: 'Level', value: '3' }] }) });
      const encoded = await fetcher.fetch(`data:application/json,${encodeURIComponent('{"name":"Encoded ☕"}')}`, tokenId);
      expect(encoded).toEqual({ kind: 'fetched', metadata: expect.objectContaining({ name: 'Encoded ☕' }) });
    });

    it('turns SVG image_data into a data: image', async () => {
      const outcome = await fetcher.fetch(dataJson({ name: 'Loot', image_data: svg }), tokenId);
      const image = { url: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, contentType: 'image/svg+xml' };
      expect(outcome).toEqual({ kind: 'fetched', metadata: expect.objectContaining({ content: { preview: image, detail: image } }) });
    });

    it('refuses a data: URI that is not JSON', async () => {
      expect(await fetcher.fetch('data:image/svg+xml;base64,PHN2Zz4=', tokenId)).toEqual({
        kind: 'unusable',
        reason: 'content type image/svg+xml is not JSON',
      });
      expect(await fetcher.fetch('data:application/json;utf8,{"name":', tokenId)).toEqual({ kind: 'unusable', reason: 'not JSON' });
    });
  });

  describe('over http', () => {
    it('fetches hosted JSON, rewriting ipfs:// inside it through the gateway', async () => {
      expect(await fetcher.fetch(`${base()}/token/1.json`, tokenId)).toEqual({
        kind: 'fetched',
        metadata: {
          name: 'Hosted #1',
          description: 'Served over http',
          tags: [],
          content: {
            preview: { url: `${base()}/ipfs/QmImage/1.png`, contentType: 'image/png' },
            detail: { url: `${base()}/ipfs/QmImage/1.png`, contentType: 'image/png' },
          },
          attributes: [{ key: 'Eyes', value: 'Laser' }],
          externalLinks: [],
        },
      });
    });

    it.each(['/token/plain', '/token/untyped'])('accepts JSON served as %s', async (path) => {
      expect(await fetcher.fetch(`${base()}${path}`, tokenId)).toMatchObject({ kind: 'fetched', metadata: { name: 'Hosted #1' } });
    });

    it('connects a resolved name to the address the guard checked', async () => {
      dialled.length = 0;
      // The system resolver knows no nft-metadata.test: the connection can only have used the pin.
      expect(await fetcher.fetch(`http://nft-metadata.test:${port}/token/1.json`, tokenId)).toMatchObject({ kind: 'fetched', metadata: { name: 'Hosted #1' } });
      expect(dialled).toEqual(['nft-metadata.test']);
    });

    it('substitutes an ERC-1155 {id}', async () => {
      const outcome = await fetcher.fetch(`${base()}/erc1155/{id}.json`, tokenId);
      expect(outcome).toMatchObject({ kind: 'fetched', metadata: { name: `Token ${tokenHex}` } });
    });

    it.each(['ipfs://QmMetadata/7.json', 'ipfs://ipfs/QmMetadata/7.json'])('fetches %s through the gateway', async (uri) => {
      expect(await fetcher.fetch(uri, tokenId)).toMatchObject({
        kind: 'fetched',
        metadata: { name: 'From IPFS', content: { preview: { url: `${base()}/ipfs/QmMetadata/7.png`, contentType: 'image/png' } } },
      });
    });

    it.each([
      { path: '/missing', outcome: { kind: 'unusable', reason: 'HTTP 404' } },
      { path: '/error', outcome: { kind: 'retry', reason: 'HTTP 500' } },
      { path: '/throttled', outcome: { kind: 'retry', reason: 'HTTP 429' } },
      { path: '/image', outcome: { kind: 'unusable', reason: 'content type image/png is not JSON' } },
      { path: '/html', outcome: { kind: 'unusable', reason: 'content type text/html is not JSON' } },
      { path: '/not-json', outcome: { kind: 'unusable', reason: 'not JSON' } },
      { path: '/huge', outcome: { kind: 'unusable', reason: `body larger than ${MB} bytes` } },
      { path: '/huge-chunked', outcome: { kind: 'unusable', reason: `body larger than ${MB} bytes` } },
    ])('$path -> $outcome.kind', async ({ path, outcome }) => {
      expect(await fetcher.fetch(`${base()}${path}`, tokenId)).toEqual(outcome);
    });

    it('reports a closed port as worth retrying', async () => {
      const closed = createServer();
      closed.listen(0, '127.0.0.1');
      await once(closed, 'listening');
      const closedPort = (closed.address() as AddressInfo).port;
      closed.close();
      await once(closed, 'close');
      const outcome = await fetcher.fetch(`http://127.0.0.1:${closedPort}/token/1.json`, tokenId);
      expect(outcome).toEqual({ kind: 'retry', reason: expect.stringContaining('ECONNREFUSED') });
    });

    it.each([
      { uri: '', reason: 'empty URI' },
      { uri: 'ar://abc', reason: 'unsupported URI scheme ar:' },
      { uri: 'ftp://127.0.0.1/1.json', reason: 'unsupported URI scheme ftp:' },
    ])('refuses "$uri" without a request', async ({ uri, reason }) => {
      expect(await fetcher.fetch(uri, tokenId)).toEqual({ kind: 'unusable', reason });
    });
  });

  describe('redirects', () => {
    it.each(['/redirect-relative', '/redirect-named'])('follows %s', async (path) => {
      expect(await fetcher.fetch(`${base()}${path}`, tokenId)).toMatchObject({ kind: 'fetched', metadata: { name: 'Hosted #1' } });
    });

    it.each([
      { path: '/redirect-private', host: '10.1.2.3', reason: 'metadata URL host is a private address (10.1.2.3)' },
      { path: '/redirect-cloud-metadata', host: '169.254.169.254', reason: 'metadata URL host is a link-local address (169.254.169.254)' },
      { path: '/redirect-internal-name', host: 'internal.test', reason: 'metadata URL host resolves to a private address (10.0.0.5)' },
    ])('refuses $path without dialling $host', async ({ path, host, reason }) => {
      dialled.length = 0;
      requested.length = 0;
      expect(await fetcher.fetch(`${base()}${path}`, tokenId)).toEqual({ kind: 'unusable', reason });
      expect(requested).toEqual([path]);
      expect(dialled).not.toContain(host);
    });

    it('refuses a redirect to another scheme', async () => {
      expect(await fetcher.fetch(`${base()}/redirect-file`, tokenId)).toEqual({ kind: 'unusable', reason: 'metadata URL must use http or https' });
    });

    it('stops after maxRedirects hops', async () => {
      requested.length = 0;
      expect(await setupFetcher({ maxRedirects: 2 }).fetch(`${base()}/redirect-loop`, tokenId)).toEqual({ kind: 'unusable', reason: 'more than 2 redirects' });
      expect(requested).toHaveLength(3);
    });
  });

  describe('without an allow-list', () => {
    it('refuses loopback before connecting', async () => {
      requested.length = 0;
      const strict = setupFetcher({ allow: [] });
      expect(await strict.fetch(`${base()}/token/1.json`, tokenId)).toEqual({
        kind: 'unusable',
        reason: 'metadata URL host is a loopback address (127.0.0.1)',
      });
      expect(await strict.fetch(`http://nft-metadata.test:${port}/token/1.json`, tokenId)).toEqual({
        kind: 'unusable',
        reason: 'metadata URL host resolves to a loopback address (127.0.0.1)',
      });
      expect(requested).toEqual([]);
    });

    it('asks for a retry when the name does not resolve', async () => {
      expect(await setupFetcher({ allow: [] }).fetch('http://nxdomain.test/1.json', tokenId)).toEqual({
        kind: 'retry',
        reason: 'metadata URL host does not resolve',
      });
    });
  });

  describe('deadline', () => {
    it.each(['/slow', '/slow-body'])('gives up on %s after timeoutMs, worth retrying', async (path) => {
      const started = performance.now();
      const outcome = await setupFetcher({ timeoutMs: 300 }).fetch(`${base()}${path}`, tokenId);
      expect(outcome).toEqual({ kind: 'retry', reason: 'timed out after 300 ms' });
      expect(performance.now() - started).toBeLessThan(1_500);
    });
  });

  it('refuses an ipfsGateway that is not an http(s) URL', () => {
    expect(() => createMetadataFetcher({ ipfsGateway: 'ipfs.io/ipfs/', allow: [], timeoutMs: 1_000, maxBytes: MB })).toThrow('ipfsGateway');
  });
});
