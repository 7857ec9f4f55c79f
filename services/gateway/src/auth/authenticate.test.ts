import { cachedLookup, parseBasicApiKey, type Organization } from './authenticate.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('parseBasicApiKey', () => {
  test.each([
    [basic('wak_abc:'), 'wak_abc'],
    [`basic ${Buffer.from('k:').toString('base64')}`, 'k'],
    [`BASIC ${Buffer.from('wak_abc:').toString('base64')}`, 'wak_abc'],
    [basic('wak_ab:'), 'wak_ab'],
  ])('%p is the key %p', (header, key) => {
    expect(parseBasicApiKey(header)).toEqual({ key });
  });

  const missingColon = 'the Authorization header must carry the API key followed by a colon (an empty password); the colon is missing';
  const password = 'the Authorization header must carry the API key followed by a colon and no password; a password was sent';
  const notBasic = 'the Authorization header must be Basic followed by the standard base64 of the API key and a colon';
  test.each([
    [basic('wak_abc'), missingColon],
    [basic('wak_abc:ignored-password'), password],
    [basic('wak_abc::'), password],
    [basic(':'), 'the Authorization header carries no API key before the colon'],
    [`Basic ${Buffer.from('wak_abc?>:').toString('base64url')}`, notBasic],
    [`Basic ${Buffer.from('wak_ab:').toString('base64').replace(/=+$/, '')}`, notBasic],
    ['Basic ', notBasic],
    ['Basic', notBasic],
    ['Bearer wak_abc', notBasic],
    ['Basic !!!', notBasic],
    [undefined, 'an API key is required: send it as the username of HTTP Basic authentication with an empty password'],
  ])('%p is refused: %s', (header, problem) => {
    expect(parseBasicApiKey(header)).toEqual({ problem });
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

  /** A lookup whose answers the test hands out one by one. */
  function heldLookup() {
    const calls: { key: string; answer: (organization: Organization | null) => void; fail: (error: Error) => void }[] = [];
    const lookup = (key: string) => new Promise<Organization | null>((answer, fail) => calls.push({ key, answer, fail }));
    return { calls, lookup };
  }

  test('requests with a key being looked up share that lookup, failures included, and a failure is not kept', async () => {
    const held = heldLookup();
    const lookup = cachedLookup(held.lookup);
    const first = [lookup('new'), lookup('new'), lookup('new')];
    expect(held.calls.map((call) => call.key)).toEqual(['new']);
    held.calls[0]!.fail(new Error('database unreachable'));
    for (const waiting of first) await expect(waiting).rejects.toThrow('database unreachable');
    const again = lookup('new');
    expect(held.calls).toHaveLength(2);
    held.calls[1]!.answer(organization);
    expect(await again).toBe(organization);
  });

  test('a key in use is looked up again in the background after three quarters of its time, served from the cache meanwhile', async () => {
    let clock = 0;
    const held = heldLookup();
    const lookup = cachedLookup(held.lookup, { ttlMs: 40_000, now: () => clock });
    const first = lookup('busy');
    clock = 1_000;
    held.calls[0]!.answer(organization);
    await first;
    clock = 29_999;
    expect(await lookup('busy')).toBe(organization);
    expect(held.calls).toHaveLength(1);
    clock = 30_000;
    // The key was revoked: the background lookup finds none; requests meanwhile get the kept organization, with one lookup running.
    expect(await lookup('busy')).toBe(organization);
    expect(await lookup('busy')).toBe(organization);
    expect(held.calls).toHaveLength(2);
    held.calls[1]!.answer(null);
    await Promise.resolve();
    await Promise.resolve();
    expect(await lookup('busy')).toBeNull();
  });

  test('after a failed background lookup the entry is served until 40 s after the lookup that read it began, and unknown keys are not refreshed', async () => {
    let clock = 0;
    const held = heldLookup();
    const lookup = cachedLookup(held.lookup, { ttlMs: 40_000, negativeTtlMs: 8_000, now: () => clock });
    const first = lookup('busy');
    const unknown = lookup('unknown');
    clock = 5_000;
    held.calls[0]!.answer(organization);
    held.calls[1]!.answer(null);
    await Promise.all([first, unknown]);
    clock = 7_999;
    expect(await lookup('unknown')).toBeNull();
    clock = 30_000;
    expect(await lookup('busy')).toBe(organization);
    held.calls[2]!.fail(new Error('database unreachable'));
    await Promise.resolve();
    await Promise.resolve();
    // The next request tries again in the background, one lookup at a time.
    clock = 39_999;
    expect(await lookup('busy')).toBe(organization);
    expect(await lookup('busy')).toBe(organization);
    expect(held.calls.map((call) => call.key)).toEqual(['busy', 'unknown', 'busy', 'busy']);
    // Expired: requests wait for the lookup running.
    clock = 40_000;
    let settled = false;
    const expired = lookup('busy').finally(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    held.calls[3]!.answer(organization);
    expect(await expired).toBe(organization);
    expect(held.calls).toHaveLength(4);
  });
});
