import { ipfsToGateway, resolveContentUrl, resolveMetadataUri, substituteTokenId } from './metadata-uri.js';

const context = { ipfsGateway: 'https://ipfs.io/ipfs/', tokenId: 314n };
const cid = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';

describe('substituteTokenId', () => {
  it.each([
    { uri: 'https://api.example.com/{id}.json', tokenId: 314n, expected: `https://api.example.com/${'0'.repeat(61)}13a.json` },
    { uri: 'https://api.example.com/{id}', tokenId: 0n, expected: `https://api.example.com/${'0'.repeat(64)}` },
    { uri: 'https://api.example.com/{id}', tokenId: 2n ** 256n - 1n, expected: `https://api.example.com/${'f'.repeat(64)}` },
    { uri: 'ipfs://cid/{id}/{id}', tokenId: 255n, expected: `ipfs://cid/${'0'.repeat(62)}ff/${'0'.repeat(62)}ff` },
    { uri: 'https://api.example.com/{ID}', tokenId: 1n, expected: 'https://api.example.com/{ID}' },
    { uri: 'https://api.example.com/1', tokenId: 1n, expected: 'https://api.example.com/1' },
  ])('$uri with $tokenId', ({ uri, tokenId, expected }) => {
    expect(substituteTokenId(uri, tokenId)).toBe(expected);
  });
});

describe('ipfsToGateway', () => {
  it.each([
    [`ipfs://${cid}`, `https://ipfs.io/ipfs/${cid}`],
    [`ipfs://${cid}/1.json`, `https://ipfs.io/ipfs/${cid}/1.json`],
    [`ipfs://ipfs/${cid}/1.json`, `https://ipfs.io/ipfs/${cid}/1.json`],
    [`IPFS://${cid}/a b.json`, `https://ipfs.io/ipfs/${cid}/a%20b.json`],
    ['ipfs://', undefined],
    ['ipfs://ipfs/', undefined],
  ])('%s -> %s', (uri, expected) => {
    expect(ipfsToGateway(uri, 'https://ipfs.io/ipfs/')).toBe(expected);
  });

  it('adds the slash a gateway prefix lacks', () => {
    expect(ipfsToGateway(`ipfs://${cid}`, 'http://127.0.0.1:8080/ipfs')).toBe(`http://127.0.0.1:8080/ipfs/${cid}`);
  });
});

describe('resolveMetadataUri', () => {
  it.each([
    { uri: 'https://api.example.com/token/314', expected: { kind: 'http', url: 'https://api.example.com/token/314' } },
    { uri: '  http://api.example.com/token/314\0\0\0', expected: { kind: 'http', url: 'http://api.example.com/token/314' } },
    { uri: 'https://api.example.com/{id}.json', expected: { kind: 'http', url: `https://api.example.com/${'0'.repeat(61)}13a.json` } },
    { uri: `ipfs://${cid}/314`, expected: { kind: 'http', url: `https://ipfs.io/ipfs/${cid}/314` } },
    { uri: `ipfs://ipfs/${cid}/{id}`, expected: { kind: 'http', url: `https://ipfs.io/ipfs/${cid}/${'0'.repeat(61)}13a` } },
    { uri: '', expected: { kind: 'unusable', reason: 'empty URI' } },
    { uri: ' \0 ', expected: { kind: 'unusable', reason: 'empty URI' } },
    { uri: 'ar://abc', expected: { kind: 'unusable', reason: 'unsupported URI scheme ar:' } },
    { uri: 'ipns://k51/1.json', expected: { kind: 'unusable', reason: 'unsupported URI scheme ipns:' } },
    { uri: 'file:///etc/passwd', expected: { kind: 'unusable', reason: 'unsupported URI scheme file:' } },
    { uri: 'javascript:alert(1)', expected: { kind: 'unusable', reason: 'unsupported URI scheme javascript:' } },
    { uri: `${cid}/1.json`, expected: { kind: 'unusable', reason: 'not an absolute URI' } },
    { uri: 'ipfs://', expected: { kind: 'unusable', reason: 'malformed ipfs: URI' } },
    { uri: 'https://', expected: { kind: 'unusable', reason: 'malformed https: URI' } },
    { uri: 'data:application/json', expected: { kind: 'unusable', reason: 'malformed data: URI' } },
  ])('"$uri"', ({ uri, expected }) => {
    expect(resolveMetadataUri(uri, context)).toEqual(expected);
  });

  it('decodes data: URIs and leaves {id} in them alone', () => {
    const source = resolveMetadataUri('data:application/json;utf8,{"name":"{id}"}', context);
    expect(source.kind).toBe('data');
    if (source.kind !== 'data') return;
    expect(source.mediaType).toBe('application/json');
    expect(source.body.toString()).toBe('{"name":"{id}"}');
  });
});

describe('resolveContentUrl', () => {
  it.each([
    ['https://cdn.example.com/1.png', 'https://cdn.example.com/1.png'],
    [` ipfs://${cid}/1.png `, `https://ipfs.io/ipfs/${cid}/1.png`],
    ['https://cdn.example.com/{id}.png', `https://cdn.example.com/${'0'.repeat(61)}13a.png`],
    ['data:image/svg+xml;base64,PHN2Zz4=', 'data:image/svg+xml;base64,PHN2Zz4='],
    ['javascript:alert(1)', undefined],
    ['ar://abc', undefined],
    ['/relative.png', undefined],
    ['', undefined],
  ])('%s -> %s', (value, expected) => {
    expect(resolveContentUrl(value, context)).toBe(expected);
  });
});
