import { buildGatewayDocument, defaultDocumentUrl, formatDocument, parseOpenApiArgs } from './openapi-document.js';
import { UsageError } from './keys-create.js';

describe('wallet-api openapi arguments', () => {
  test.each([
    [[], { publicUrl: defaultDocumentUrl }],
    [['--out', 'openapi.json'], { out: 'openapi.json', publicUrl: defaultDocumentUrl }],
    [['--public-url', 'https://api.example.com'], { publicUrl: 'https://api.example.com' }],
  ])('%p', (args, expected) => {
    expect(parseOpenApiArgs(args)).toEqual(expected);
  });

  test.each([[['--bogus']], [['stray']], [['--out']], [['--public-url', 'not a url']]])('%p is a usage error', (args) => {
    expect(() => parseOpenApiArgs(args)).toThrow(UsageError);
  });
});

describe('the document built without a running stack', () => {
  test('declares the routes with the given server, as two-space JSON ending in a newline', () => {
    const document = buildGatewayDocument('https://api.example.com/');
    expect(document.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(document.paths?.['/v1/chains/{chain_id}']?.get?.responses?.['404']).toBeDefined();
    expect(document.components?.securitySchemes?.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    const text = formatDocument(document);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(document);
  });
});
