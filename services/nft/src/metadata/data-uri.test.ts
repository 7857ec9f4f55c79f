import { dataUriMediaType, parseDataUri, percentDecode } from './data-uri.js';

const json = '{"name":"On chain #1","description":"100% on chain"}';

describe('parseDataUri', () => {
  it.each([
    { uri: `data:application/json;base64,${Buffer.from(json).toString('base64')}`, mediaType: 'application/json', body: json },
    { uri: `data:Application/JSON;charset=utf-8;base64,${Buffer.from(json).toString('base64')}`, mediaType: 'application/json', body: json },
    { uri: `data:application/json;base64,${encodeURIComponent(Buffer.from(json).toString('base64'))}`, mediaType: 'application/json', body: json },
    { uri: `data:application/json;utf8,${json}`, mediaType: 'application/json', body: json },
    { uri: `data:application/json,${encodeURIComponent(json)}`, mediaType: 'application/json', body: json },
    { uri: 'data:application/json;utf8,{"name":"caf%C3%A9, ☕"}', mediaType: 'application/json', body: '{"name":"café, ☕"}' },
    { uri: 'data:,hello', mediaType: 'text/plain', body: 'hello' },
    { uri: 'DATA:text/plain;base64,aGk=', mediaType: 'text/plain', body: 'hi' },
  ])('reads $uri', ({ uri, mediaType, body }) => {
    const data = parseDataUri(uri);
    expect(data?.mediaType).toBe(mediaType);
    expect(data?.body.toString('utf8')).toBe(body);
  });

  it.each(['https://example.com/1.json', 'data:application/json', 'ipfs://data:,x'])('is undefined for %s', (uri) => {
    expect(parseDataUri(uri)).toBeUndefined();
  });

  it('reads the media type without decoding the body', () => {
    expect(dataUriMediaType('data:image/svg+xml;base64,PHN2Zz4=')).toBe('image/svg+xml');
    expect(dataUriMediaType('https://example.com/a.svg')).toBeUndefined();
  });
});

describe('percentDecode', () => {
  it.each([
    ['a%20b', 'a b'],
    ['100%', '100%'],
    ['100% sure', '100% sure'],
    ['%zz%4', '%zz%4'],
    ['%e2%98%95', '☕'],
    ['☕', '☕'],
  ])('%s -> %s', (text, expected) => {
    expect(percentDecode(text).toString('utf8')).toBe(expected);
  });
});
