import { Redis } from 'ioredis';
import { createChangeVersions, type WalletChangeTokens } from '@wallet-api/core/cache';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { encodeAnswer, type EncodedAnswer } from '../src/cache/encoded-answer.js';
import { createResponseCache, type ResponseCache } from '../src/cache/response-cache.js';

// The answer cache over the Redis of scripts/up.sh, in a key space of its own.
const redis = new Redis(testConfig().REDIS_URL);
const versions = createChangeVersions(redis, { keyPrefix: uniqueName('cache-test') });
const cache = createResponseCache({ versions, logger: testLogger, maxBytes: 1024 * 1024, maxAgeMs: 60_000 });
const wallet = '0xAbC0000000000000000000000000000000000001';
// Answers of this test read the wallet's holdings, like positions and portfolio.
const request = (key: string) => ({ route: '/v1/test', wallet, data: ['holdings'] as const, key });

afterAll(() => redis.disconnect());

function counting(body: string) {
  const calls = { count: 0 };
  return { calls, compute: async () => (calls.count++, encodeAnswer(body)) };
}

/** An answer of `answers` (the cache by default) with its bytes read as text. */
async function served(key: string, compute: () => Promise<EncodedAnswer>, answers: ResponseCache = cache) {
  const { body, outcome } = await answers.serve(request(key), compute);
  return { body: body.identity.toString(), outcome };
}

test('an answer is computed once and served until the data it reads of the wallet, in any letter case, or everything changes', async () => {
  const first = counting('one');
  expect(await served('a', first.compute)).toEqual({ body: 'one', outcome: 'miss' });
  expect(await served('a', first.compute)).toEqual({ body: 'one', outcome: 'hit' });
  expect(first.calls.count).toBe(1);

  await versions.walletsChanged([wallet.toLowerCase()], 'holdings');
  expect(await served('a', counting('two').compute)).toEqual({ body: 'two', outcome: 'miss' });
  // The wallet's transaction history is data these answers do not read.
  await versions.walletsChanged([wallet], 'history');
  expect(await served('a', counting('two and a half').compute)).toEqual({ body: 'two', outcome: 'hit' });
  await versions.walletsChanged(['0x0000000000000000000000000000000000000002'], 'holdings');
  expect(await served('a', counting('three').compute)).toEqual({ body: 'two', outcome: 'hit' });
  await versions.everythingChanged();
  expect(await served('a', counting('four').compute)).toEqual({ body: 'four', outcome: 'miss' });
  await versions.pricesChanged();
  expect(await served('a', counting('five').compute)).toEqual({ body: 'five', outcome: 'miss' });
  expect(await served('a', counting('six').compute)).toEqual({ body: 'five', outcome: 'hit' });
});

test('concurrent requests for one answer share one computation; a failed one is not kept', async () => {
  let release!: (body: EncodedAnswer) => void;
  const slow = new Promise<EncodedAnswer>((resolve) => (release = resolve));
  let computations = 0;
  const compute = () => (computations++, slow);
  const answers = Promise.all([served('b', compute), served('b', compute), served('b', compute)]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  release({ identity: Buffer.from('shared') });
  expect((await answers).map((answer) => answer.outcome).sort()).toEqual(['miss', 'shared', 'shared']);
  expect(computations).toBe(1);

  await expect(cache.serve(request('c'), async () => Promise.reject(new Error('backend down')))).rejects.toThrow('backend down');
  expect(await served('c', counting('recovered').compute)).toEqual({ body: 'recovered', outcome: 'miss' });
});

test('while Redis does not answer, every request is computed and nothing stale is served', async () => {
  const offline = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
  offline.on('error', () => undefined);
  const blind = createResponseCache({ versions: createChangeVersions(offline), logger: testLogger, maxBytes: 1024 * 1024, maxAgeMs: 60_000 });
  const work = counting('fresh');
  expect(await served('d', work.compute, blind)).toEqual({ body: 'fresh', outcome: 'bypass' });
  expect(await served('d', work.compute, blind)).toEqual({ body: 'fresh', outcome: 'bypass' });
  expect(work.calls.count).toBe(2);
  offline.disconnect();
});

test("a computation is handed the tokens it is kept under; a part's cache given them reads none of its own", async () => {
  await versions.walletsChanged([wallet], 'holdings');
  let handed: WalletChangeTokens | undefined;
  await cache.serve(request('e'), async (tokens) => ((handed = tokens), encodeAnswer('outer')));
  expect(handed).toEqual(await versions.walletTokens(wallet, ['holdings']));

  // Tokens given that Redis no longer holds: the part is kept under them, not under Redis's.
  const stale = { ...handed!, prices: 'an earlier price move' };
  const part = counting('part');
  expect((await cache.serve({ ...request('f'), tokens: stale }, part.compute)).outcome).toBe('miss');
  expect((await cache.serve({ ...request('f'), tokens: stale }, part.compute)).outcome).toBe('hit');
  expect((await cache.serve(request('f'), part.compute)).outcome).toBe('miss');
  expect(part.calls.count).toBe(2);
});
