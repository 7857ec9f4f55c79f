import { parseAllowList } from './allow-list.js';
import { createCallbackUrlGuard, createOutboundUrlGuard, type ResolveHost } from './outbound-url.js';

const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.1'],
  'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'cgnat.example.com': ['100.64.1.1'],
  'ula.example.com': ['fd00::1'],
  'multicast.example.com': ['224.0.0.1'],
  'hooks.internal.example': ['10.1.2.3'],
  localhost: ['127.0.0.1', '::1'],
  'empty.example.com': [],
};

const lookup: ResolveHost = async (host) => {
  const answers = dns[host];
  if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('createCallbackUrlGuard (no allow-list)', () => {
  const guard = createCallbackUrlGuard({ allow: [], lookup });

  it.each([
    { url: 'https://hooks.example.com/webhook', addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] },
    { url: 'https://HOOKS.example.com:8443/a?b=c', addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] },
    { url: 'https://8.8.8.8/hook', addresses: ['8.8.8.8'] },
    { url: 'https://[2606:4700:4700::1111]/hook', addresses: ['2606:4700:4700::1111'] },
  ])('accepts $url', async ({ url, addresses }) => {
    const result = await guard.check(url);
    expect(result).toEqual({ ok: true, url: new URL(url), addresses });
  });

  it.each([
    { url: 'not-a-url', reason: 'callback_url is not a valid absolute URL' },
    { url: '/relative/path', reason: 'callback_url is not a valid absolute URL' },
    { url: 'http://hooks.example.com/webhook', reason: 'callback_url must use https' },
    { url: 'ftp://hooks.example.com/', reason: 'callback_url must use https' },
    { url: 'file:///etc/passwd', reason: 'callback_url must use https' },
    { url: 'javascript:alert(1)', reason: 'callback_url must use https' },
    { url: 'wss://hooks.example.com/', reason: 'callback_url must use https' },
    { url: 'https://user:pw@hooks.example.com/', reason: 'callback_url must not contain credentials' },
    { url: 'https://user@hooks.example.com/', reason: 'callback_url must not contain credentials' },
    { url: 'https://:@hooks.example.com/', reason: 'callback_url must not contain credentials' },
    { url: 'https://@hooks.example.com/', reason: 'callback_url must not contain credentials' },
    { url: 'https://hooks.example.com:0/', reason: 'callback_url must not use port 0' },
    { url: 'https://hooks.example.com/a\r\nX-Injected: 1', reason: 'callback_url must not contain spaces or control characters' },
    { url: 'https://hooks.exa\tmple.com/', reason: 'callback_url must not contain spaces or control characters' },
    { url: 'https://hooks.example.com/a b', reason: 'callback_url must not contain spaces or control characters' },
    { url: ' https://hooks.example.com/', reason: 'callback_url must not contain spaces or control characters' },
    { url: 'https://hooks.example.com/\u007f', reason: 'callback_url must not contain spaces or control characters' },
    { url: 'https://internal.example.com/', reason: 'callback_url host resolves to a private address (10.0.0.1)' },
    { url: 'https://mixed.example.com/', reason: 'callback_url host resolves to a private address (192.168.0.10)' },
    { url: 'https://metadata.example.com/', reason: 'callback_url host resolves to a link-local address (169.254.169.254)' },
    { url: 'https://mapped.example.com/', reason: 'callback_url host resolves to a loopback address (::ffff:127.0.0.1)' },
    { url: 'https://cgnat.example.com/', reason: 'callback_url host resolves to a carrier-grade NAT address (100.64.1.1)' },
    { url: 'https://ula.example.com/', reason: 'callback_url host resolves to a unique-local address (fd00::1)' },
    { url: 'https://multicast.example.com/', reason: 'callback_url host resolves to a multicast address (224.0.0.1)' },
    { url: 'https://localhost/', reason: 'callback_url host resolves to a loopback address (127.0.0.1)' },
    { url: 'https://127.0.0.1/', reason: 'callback_url host is a loopback address (127.0.0.1)' },
    { url: 'https://0x7f.1/', reason: 'callback_url host is a loopback address (127.0.0.1)' },
    { url: 'https://2130706433/', reason: 'callback_url host is a loopback address (127.0.0.1)' },
    { url: 'https://[::1]/', reason: 'callback_url host is a loopback address (::1)' },
    { url: 'https://[::ffff:10.0.0.1]/', reason: 'callback_url host is a private address (::ffff:a00:1)' },
    { url: 'https://[::]/', reason: 'callback_url host is an unspecified address (::)' },
    { url: 'https://0.0.0.0/', reason: 'callback_url host is an unspecified address (0.0.0.0)' },
    { url: 'https://255.255.255.255/', reason: 'callback_url host is a broadcast address (255.255.255.255)' },
    { url: 'https://[fe80::1]/', reason: 'callback_url host is a link-local address (fe80::1)' },
  ])('refuses $url', async ({ url, reason }) => {
    expect(await guard.check(url)).toEqual({ ok: false, reason, retryable: false });
  });

  it.each(['https://nxdomain.example.com/', 'https://empty.example.com/'])('reports %s as not resolving, retryably', async (url) => {
    expect(await guard.check(url)).toEqual({ ok: false, reason: 'callback_url host does not resolve', retryable: true });
  });
});

describe('createCallbackUrlGuard (allow-listed)', () => {
  const guard = createCallbackUrlGuard({ allow: parseAllowList('loopback,192.168.0.0/16,hooks.internal.example'), lookup });

  it.each([
    { url: 'http://127.0.0.1:8080/hook', addresses: ['127.0.0.1'] },
    { url: 'https://127.0.0.1:8080/hook', addresses: ['127.0.0.1'] },
    { url: 'http://[::1]:8080/hook', addresses: ['::1'] },
    { url: 'http://localhost:3000/hook', addresses: ['127.0.0.1', '::1'] },
    { url: 'http://hooks.internal.example/hook', addresses: ['10.1.2.3'] },
    { url: 'http://192.168.3.4/hook', addresses: ['192.168.3.4'] },
    { url: 'https://mixed.example.com/', addresses: ['93.184.216.34', '192.168.0.10'] },
  ])('accepts $url', async ({ url, addresses }) => {
    expect(await guard.check(url)).toEqual({ ok: true, url: new URL(url), addresses });
  });

  it.each([
    { url: 'https://internal.example.com/', reason: 'callback_url host resolves to a private address (10.0.0.1)' },
    { url: 'http://mixed.example.com/', reason: 'callback_url must use https' },
    { url: 'http://hooks.example.com/', reason: 'callback_url must use https' },
    { url: 'https://metadata.example.com/', reason: 'callback_url host resolves to a link-local address (169.254.169.254)' },
    { url: 'http://user:pw@localhost/', reason: 'callback_url must not contain credentials' },
  ])('still refuses $url', async ({ url, reason }) => {
    expect(await guard.check(url)).toEqual({ ok: false, reason, retryable: false });
  });
});

describe('createCallbackUrlGuard default lookup', () => {
  it('resolves through the system resolver', async () => {
    const guard = createCallbackUrlGuard({ allow: parseAllowList('loopback') });
    const result = await guard.check('http://localhost/hook');
    expect(result.ok).toBe(true);
  });
});

describe('createOutboundUrlGuard', () => {
  it('names the URL by its subject, "url" by default', async () => {
    expect(await createOutboundUrlGuard({ allow: [], lookup }).check('https://internal.example.com/')).toEqual({
      ok: false,
      reason: 'url host resolves to a private address (10.0.0.1)',
      retryable: false,
    });
    expect(await createOutboundUrlGuard({ allow: [], lookup, subject: 'token_uri' }).check('nope')).toEqual({
      ok: false,
      reason: 'token_uri is not a valid absolute URL',
      retryable: false,
    });
  });

  it('reads URLs from chains as the URL standard does: a stray line break or a surrounding space is dropped, not refused', async () => {
    const guard = createOutboundUrlGuard({ allow: [], lookup });
    expect(await guard.check(' https://hooks.example.com/meta/1\n')).toMatchObject({ ok: true, url: new URL('https://hooks.example.com/meta/1') });
  });

  it('refuses http to public hosts unless allowPublicHttp', async () => {
    const strict = createOutboundUrlGuard({ allow: [], lookup });
    expect(await strict.check('http://hooks.example.com/a')).toEqual({ ok: false, reason: 'url must use https', retryable: false });
  });

  describe('with allowPublicHttp', () => {
    const guard = createOutboundUrlGuard({ allow: [], lookup, allowPublicHttp: true });

    it.each(['http://hooks.example.com/a', 'https://hooks.example.com/a', 'http://8.8.8.8/x'])('accepts %s', async (url) => {
      expect(await guard.check(url)).toMatchObject({ ok: true, url: new URL(url) });
    });

    it.each([
      { url: 'http://internal.example.com/', reason: 'url host resolves to a private address (10.0.0.1)' },
      { url: 'http://169.254.169.254/latest/meta-data', reason: 'url host is a link-local address (169.254.169.254)' },
      { url: 'http://127.0.0.1:8080/', reason: 'url host is a loopback address (127.0.0.1)' },
      { url: 'http://mixed.example.com/', reason: 'url host resolves to a private address (192.168.0.10)' },
      { url: 'ftp://hooks.example.com/', reason: 'url must use http or https' },
      { url: 'http://user:pw@hooks.example.com/', reason: 'url must not contain credentials' },
    ])('still refuses $url', async ({ url, reason }) => {
      expect(await guard.check(url)).toEqual({ ok: false, reason, retryable: false });
    });
  });
});
