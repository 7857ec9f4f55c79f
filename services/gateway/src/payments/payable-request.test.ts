import { isPayableRequest } from './payable-request.js';

describe('isPayableRequest', () => {
  test.each([
    ['GET', '/v1/chains/', true],
    ['GET', '/v1/wallets/0xabc/portfolio', true],
    ['HEAD', '/v1/fungibles/', true],
    ['GET', '/v1/tx-subscriptions/', false],
    ['GET', '/v1/tx-subscriptions/sub-1/wallets', false],
    ['POST', '/v1/tx-subscriptions/', false],
    ['POST', '/v1/transactions/build-action/', false],
    ['DELETE', '/v1/tx-subscriptions/sub-1', false],
    ['GET', '/v1/tx-subscriptionsx', true],
  ])('%s %s payable: %s', (method, path, payable) => {
    expect(isPayableRequest(method, path)).toBe(payable);
  });
});
