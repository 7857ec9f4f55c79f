import { Router } from 'express';
import { declaredPathMatcher } from './declared-paths.js';

describe('declaredPathMatcher', () => {
  const router = Router();
  for (const path of ['/chains/', '/chains/:chain_id', '/wallets/:address/positions/', '/swap/quotes/', '/swap/offers/'])
    router.get(path, (_req, res) => void res.end());
  const declared = declaredPathMatcher('/v1', router);

  test.each([
    ['/v1/chains/'],
    ['/v1/chains'],
    ['/v1/chains/base'],
    ['/v1/chains/base/'],
    ['/v1/wallets/0xabc/positions/'],
    ['/V1/Wallets/0xabc/Positions'],
    ['/v1/swap/quotes/'],
    ['/v1/swap/offers'],
  ])('%s is a declared path', (path) => expect(declared(path)).toBe(true));

  test.each([
    ['/v1/nope'],
    ['/v1/chains/base/extra'],
    ['/v1/wallets//positions/'],
    ['/v1/wallets/0xabc/positions/x'],
    ['/v1/swapXquotes/'],
    ['/v1'],
    ['/chains/'],
  ])('%s is not', (path) => expect(declared(path)).toBe(false));
});
