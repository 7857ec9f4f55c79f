import { requestTarget } from './request-url.js';

describe('requestTarget', () => {
  test.each([
    ['/v1/chains/', '/v1/chains/'],
    ['/v1/chains/?currency=usd&filter[chain_ids]=base', '/v1/chains/?currency=usd&filter[chain_ids]=base'],
    ['/v1/chains/#fragment', '/v1/chains/'],
    ['/v1/chains/?a=1#frag#ment', '/v1/chains/?a=1'],
    ['http://127.0.0.1:8080/v1/chains/', '/v1/chains/'],
    ['http://evil.invalid/v1/wallets/0xabc/positions/?currency=eur#x', '/v1/wallets/0xabc/positions/?currency=eur'],
  ])('%s is sent as %s', (originalUrl, target) => {
    expect(requestTarget(originalUrl)).toBe(target);
  });
});
