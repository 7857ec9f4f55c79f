import { acceptsContentType, metadataFromBody } from './metadata-body.js';

const context = { ipfsGateway: 'https://ipfs.io/ipfs/', tokenId: 1n };

describe('acceptsContentType', () => {
  it.each([
    [undefined, true],
    ['', true],
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/ld+json', true],
    ['text/plain; charset=utf-8', true],
    ['application/octet-stream', true],
    ['binary/octet-stream', true],
    ['image/png', false],
    ['text/html', false],
    ['application/jsonp', false],
  ])('%p -> %p', (type, expected) => {
    expect(acceptsContentType(type)).toBe(expected);
  });
});

describe('metadataFromBody', () => {
  it.each([
    { name: 'JSON', type: 'application/json', body: '{"name":"A"}', expected: { kind: 'fetched', metadata: expect.objectContaining({ name: 'A' }) } },
    {
      name: 'a byte-order mark',
      type: 'application/json',
      body: '\uFEFF{"name":"A"}',
      expected: { kind: 'fetched', metadata: expect.objectContaining({ name: 'A' }) },
    },
    { name: 'no type but JSON', type: undefined, body: '{"name":"A"}', expected: { kind: 'fetched', metadata: expect.objectContaining({ name: 'A' }) } },
    { name: 'wrong type', type: 'image/png', body: '{}', expected: { kind: 'unusable', reason: 'content type image/png is not JSON' } },
    { name: 'not JSON', type: 'text/plain', body: '<html>', expected: { kind: 'unusable', reason: 'not JSON' } },
    { name: 'empty', type: 'application/json', body: '', expected: { kind: 'unusable', reason: 'not JSON' } },
    { name: 'a JSON array', type: 'application/json', body: '[{"name":"A"}]', expected: { kind: 'unusable', reason: 'not a JSON object' } },
  ])('$name', ({ type, body, expected }) => {
    expect(metadataFromBody(type, Buffer.from(body), context)).toEqual(expected);
  });
});
