import { cachedLookup, parseBasicApiKey, type Organization } from './authenticate.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('parseBasicApiKey', () => {
  test.each([
    [basic('wak_abc:'), 'wak_abc'],
    [basic('wak_abc'), 'wak_abc'],
    [basic('wak_abc:ignored-password'), 'wak_abc'],
    [`basic ${Buffer.from('k:').toString('base64')}`, 'k'],
    [basic(':'), undefined],
    [basic(''), undefined],
    ['Bearer wak_abc', undefined],
    ['Basic', undefined],
    ['Basic !!!', undefined],
    [undefined, undefined],
  ])('%p -> %p', (header, expected) => {
    expect(parseBasicApiKey(header)).toBe(expected);
  });
});

describe('cachedLookup', () => {
  const organization: Organization = { id: 'o', name: 'o', roles: [], addons: [], rateLimitPerSecond: null, rateLimitBurst: null };

  test('serves repeated keys from the cache, known and unknown', async () => {
    const calls: string[] = [];
    const lookup = cachedLookup(async (key) => {
      calls.push(key);
      return key === 'good' ? organization : null;
    });
    expect(await lookup('good')).toBe(organization);
    expect(await lookup('good')).toBe(organization);
    expect(await lookup('bad')).toBeNull();
    expect(await lookup('bad')).toBeNull();
    expect(calls).toEqual(['good', 'bad']);
  });

  test('asks again once an entry expired, and stays within its size bound', async () => {
    const calls: string[] = [];
    const lookup = cachedLookup(async (key) => (calls.push(key), organization), { ttlMs: 0, negativeTtlMs: 0, maxEntries: 2 });
    await lookup('a');
    await lookup('a');
    await lookup('b');
    await lookup('c');
    expect(calls).toEqual(['a', 'a', 'b', 'c']);
  });
});
