import { declaredPathMatcher } from './declared-paths.js';

describe('declaredPathMatcher', () => {
  const declared = declaredPathMatcher(['/v1/chains/', '/v1/chains/{chain_id}', '/v1/wallets/{address}/positions/', '/v1/swap/quotes/']);

  test.each([['/v1/chains/'], ['/v1/chains'], ['/v1/chains/base'], ['/v1/chains/base/'], ['/v1/wallets/0xabc/positions/'], ['/V1/Wallets/0xabc/Positions'], ['/v1/swap/quotes/']])(
    '%s is a declared path',
    (path) => expect(declared(path)).toBe(true),
  );

  test.each([['/v1/nope'], ['/v1/chains/base/extra'], ['/v1/wallets//positions/'], ['/v1/wallets/0xabc/positions/x'], ['/v1/swapXquotes/'], ['/v1']])(
    '%s is not',
    (path) => expect(declared(path)).toBe(false),
  );
});
