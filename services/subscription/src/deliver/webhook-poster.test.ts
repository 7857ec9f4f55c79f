import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { createCallbackUrlGuard, parseAllowList, type CallbackUrlGuard, type ResolveHost } from '@wallet-api/core/outbound';
import { createWebhookPoster, type WebhookPoster } from './webhook-poster.js';

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (res: ServerResponse, req: IncomingMessage) => void;

const routes: Record<string, Handler> = {
  '/ok': (res) => res.end('thanks'),
  '/no-content': (res) => res.writeHead(204).end(),
  '/busy': (res) => res.writeHead(503, { 'retry-after': '120' }).end('busy'),
  '/throttled': (res) => res.writeHead(429, { 'retry-after': '7' }).end(),
  '/error': (res) => res.writeHead(500, { 'retry-after': '120' }).end('oops'),
  '/gone': (res) => res.writeHead(410).end('unsubscribed'),
  '/redirect': (res) => res.writeHead(302, { location: '/ok' }).end(),
  '/large': (res) => res.end('x'.repeat(1024 * 1024)),
  '/slow-headers': (res) => setTimeout(() => res.end('late'), 2_000).unref(),
  '/slow-body': (res) => {
    res.writeHead(200).write('partial');
    setTimeout(() => res.end('rest'), 2_000).unref();
  },
  '/reset': (_res, req) => req.socket.destroy(),
  '/held': (res) => setTimeout(() => res.end('done'), 150),
};

async function listen(server: Server | ReturnType<typeof createTlsServer>): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('createWebhookPoster', () => {
  const received: Received[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    received.push({ url: req.url ?? '', headers: req.headers, body });
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    res.on('close', () => (inFlight -= 1));
    (routes[req.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res, req);
  });
  let port = 0;
  let base = '';
  const loopbackGuard = createCallbackUrlGuard({ allow: parseAllowList('loopback') });
  let poster: WebhookPoster;

  beforeAll(async () => {
    port = await listen(server);
    base = `http://127.0.0.1:${port}`;
    poster = createWebhookPoster({ timeoutMs: 500, maxConnectionsPerHost: 4, guard: loopbackGuard });
  });
  afterAll(async () => {
    await poster.close();
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => {
    received.length = 0;
    peakInFlight = 0;
  });

  it.each([
    { path: '/ok', expected: { kind: 'delivered', status: 200, responseBody: 'thanks' } },
    { path: '/no-content', expected: { kind: 'delivered', status: 204, responseBody: '' } },
    { path: '/busy', expected: { kind: 'failed', status: 503, retryAfterMs: 120_000, error: 'HTTP 503', responseBody: 'busy' } },
    { path: '/throttled', expected: { kind: 'failed', status: 429, retryAfterMs: 7_000, error: 'HTTP 429', responseBody: '' } },
    { path: '/error', expected: { kind: 'failed', status: 500, error: 'HTTP 500', responseBody: 'oops' } },
    { path: '/gone', expected: { kind: 'gone', status: 410, responseBody: 'unsubscribed' } },
    { path: '/redirect', expected: { kind: 'failed', status: 302, error: 'redirect 302 not followed', responseBody: '' } },
    { path: '/missing', expected: { kind: 'failed', status: 404, error: 'HTTP 404', responseBody: '' } },
  ])('$path -> $expected.kind', async ({ path, expected }) => {
    const outcome = await poster.post(`${base}${path}`, {}, '{}');
    expect(outcome).toEqual({ ...expected, latencyMs: expect.any(Number) });
    expect(received.map((r) => r.url)).toEqual([path]);
  });

  it('sends the body with JSON content type, user agent and the caller signature headers', async () => {
    const body = JSON.stringify({ id: 'dlv_1', memo: 'café' });
    await poster.post(`${base}/ok`, { 'webhook-id': 'dlv_1', 'webhook-signature': 'v1,abc' }, body);
    const [request] = received;
    expect(request?.body).toBe(body);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'wallet-api-webhooks/1',
      'webhook-id': 'dlv_1',
      'webhook-signature': 'v1,abc',
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it('keeps only the first KiB of a large reply', async () => {
    const outcome = await poster.post(`${base}/large`, {}, '{}');
    expect(outcome.kind === 'delivered' && outcome.responseBody).toBe('x'.repeat(1024));
  });

  it('fails an attempt whose response does not arrive before the deadline', async () => {
    const outcome = await poster.post(`${base}/slow-headers`, {}, '{}');
    expect(outcome).toEqual({ kind: 'failed', latencyMs: expect.any(Number), error: 'timed out after 500 ms' });
    expect(outcome.kind === 'failed' && outcome.latencyMs).toBeGreaterThanOrEqual(450);
    expect(outcome.kind === 'failed' && outcome.latencyMs).toBeLessThan(1_500);
  });

  it('stops reading a dribbling body at the deadline; the 2xx already decided the outcome', async () => {
    const outcome = await poster.post(`${base}/slow-body`, {}, '{}');
    expect(outcome).toEqual({ kind: 'delivered', status: 200, latencyMs: expect.any(Number), responseBody: 'partial' });
    expect(outcome.kind === 'delivered' && outcome.latencyMs).toBeLessThan(1_500);
  });

  it('reports a reset connection as a failure', async () => {
    const outcome = await poster.post(`${base}/reset`, {}, '{}');
    expect(outcome).toEqual({ kind: 'failed', latencyMs: expect.any(Number), error: expect.stringMatching(/closed|reset|socket/i) });
  });

  it('reports a refused connection as a failure', async () => {
    const closed = createServer();
    const closedPort = await listen(closed);
    closed.close();
    await once(closed, 'close');
    const outcome = await poster.post(`http://127.0.0.1:${closedPort}/ok`, {}, '{}');
    expect(outcome).toEqual({ kind: 'failed', latencyMs: expect.any(Number), error: expect.stringContaining('ECONNREFUSED') });
  });

  it('waits for a free slot per host before starting the deadline', async () => {
    const narrow = createWebhookPoster({ timeoutMs: 400, maxConnectionsPerHost: 2, guard: loopbackGuard });
    try {
      // Six 150 ms replies two at a time take ~450 ms: past the deadline, were the queue on the clock.
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => narrow.post(`${base}/held`, {}, '{}')));
      expect(outcomes.map((o) => o.kind)).toEqual(Array(6).fill('delivered'));
      expect(peakInFlight).toBe(2);
    } finally {
      await narrow.close();
    }
  });

  describe('with the guard deciding', () => {
    const fakeDns =
      (answers: Record<string, string[]>): ResolveHost =>
      async (host) => {
        const addresses = answers[host];
        if (!addresses) throw new Error(`ENOTFOUND ${host}`);
        return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      };
    const withGuard = async (guard: CallbackUrlGuard, test: (p: WebhookPoster) => Promise<void>) => {
      const p = createWebhookPoster({ timeoutMs: 500, maxConnectionsPerHost: 2, guard });
      try {
        await test(p);
      } finally {
        await p.close();
      }
    };

    it('connects to the address the guard checked, naming the original host', async () => {
      // hooks.test does not exist in real DNS: delivery only works if the checked address is used.
      const guard = createCallbackUrlGuard({ allow: parseAllowList('loopback'), lookup: fakeDns({ 'hooks.test': ['127.0.0.1'] }) });
      await withGuard(guard, async (p) => {
        const outcome = await p.post(`http://hooks.test:${port}/ok`, {}, '{}');
        expect(outcome.kind).toBe('delivered');
        expect(received[0]?.headers.host).toBe(`hooks.test:${port}`);
      });
    });

    it.each([
      { name: 'loopback without allow-list', allow: '', url: () => `${base}/ok`, reason: 'callback_url host is a loopback address (127.0.0.1)' },
      {
        name: 'name rebound to a private address',
        allow: 'loopback',
        url: () => `https://hooks.test:${port}/ok`,
        reason: 'callback_url host resolves to a private address (10.0.0.1)',
      },
    ])('refuses without sending: $name', async ({ allow, url, reason }) => {
      const guard = createCallbackUrlGuard({ allow: parseAllowList(allow), lookup: fakeDns({ 'hooks.test': ['10.0.0.1'] }) });
      await withGuard(guard, async (p) => {
        expect(await p.post(url(), {}, '{}')).toEqual({ kind: 'refused', reason });
        expect(received).toHaveLength(0);
      });
    });

    it('treats a name that stopped resolving as a retryable failure, not a refusal', async () => {
      const guard = createCallbackUrlGuard({ allow: [], lookup: fakeDns({}) });
      await withGuard(guard, async (p) => {
        expect(await p.post('https://gone.test/ok', {}, '{}')).toEqual({
          kind: 'failed',
          latencyMs: expect.any(Number),
          error: 'callback_url host does not resolve',
        });
      });
    });

    it('gives up on a DNS answer slower than the deadline', async () => {
      const guard = createCallbackUrlGuard({ allow: [], lookup: () => new Promise(() => undefined) });
      await withGuard(guard, async (p) => {
        expect(await p.post('https://hang.test/ok', {}, '{}')).toEqual({
          kind: 'failed',
          latencyMs: expect.any(Number),
          error: 'timed out after 500 ms',
        });
      });
    });

    it('sends the original host name for TLS, and reports a failed handshake as a failure', async () => {
      const servernames: string[] = [];
      const tls = createTlsServer({
        SNICallback: (servername, callback) => {
          servernames.push(servername);
          callback(new Error('no certificate here'), undefined);
        },
      });
      const tlsPort = await listen(tls);
      const guard = createCallbackUrlGuard({ allow: parseAllowList('loopback'), lookup: fakeDns({ 'hooks.test': ['127.0.0.1'] }) });
      try {
        await withGuard(guard, async (p) => {
          const outcome = await p.post(`https://hooks.test:${tlsPort}/ok`, {}, '{}');
          expect(outcome).toEqual({ kind: 'failed', latencyMs: expect.any(Number), error: expect.any(String) });
          expect(servernames).toEqual(['hooks.test']);
        });
      } finally {
        tls.close();
      }
    });
  });
});
