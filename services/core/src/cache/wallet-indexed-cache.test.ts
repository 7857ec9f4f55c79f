import fc from 'fast-check';
import { createWalletIndexedCache } from './wallet-indexed-cache.js';

interface Value {
  wallets: string[];
  size: number;
}

const walletNames = ['a', 'b', 'c'];
const keyNames = ['k1', 'k2', 'k3', 'k4', 'k5'];

const operation = fc.oneof(
  fc.record({
    op: fc.constant('set' as const),
    key: fc.constantFrom(...keyNames),
    wallets: fc.subarray(walletNames, { minLength: 1 }),
    size: fc.integer({ min: 1, max: 12 }),
  }),
  fc.record({ op: fc.constant('grow' as const), key: fc.constantFrom(...keyNames), size: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('delete' as const), key: fc.constantFrom(...keyNames) }),
  fc.record({ op: fc.constant('get' as const), key: fc.constantFrom(...keyNames) }),
);

describe('createWalletIndexedCache', () => {
  test('after any sequence of sets, growths, deletes and reads under a small budget, each wallet finds exactly the kept values that are its own', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        const cache = createWalletIndexedCache<Value>({ maxSize: 20, sizeOf: (value) => value.size, walletsOf: (value) => value.wallets });
        for (const step of operations) {
          if (step.op === 'set') cache.set(step.key, { wallets: step.wallets, size: step.size });
          else if (step.op === 'grow') {
            const value = cache.peek(step.key);
            if (value) {
              value.size = step.size;
              cache.resized(step.key, value);
            }
          } else if (step.op === 'delete') cache.delete(step.key);
          else cache.get(step.key);
          for (const wallet of walletNames) {
            const expected = keyNames.filter((key) => cache.peek(key)?.wallets.includes(wallet));
            expect([...cache.keysOf(wallet)].sort()).toEqual(expected);
          }
          // The budget holds once sizes are counted again.
          expect(keyNames.reduce((sum, key) => sum + (cache.peek(key)?.size ?? 0), 0)).toBeLessThanOrEqual(20);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a value larger than the budget is neither kept nor found, and replaces nothing silently', () => {
    const cache = createWalletIndexedCache<Value>({ maxSize: 10, sizeOf: (value) => value.size, walletsOf: (value) => value.wallets });
    cache.set('k', { wallets: ['a'], size: 4 });
    cache.set('k', { wallets: ['b'], size: 11 });
    expect(cache.peek('k')).toBeUndefined();
    expect([...cache.keysOf('a')]).toEqual([]);
    expect([...cache.keysOf('b')]).toEqual([]);
  });

  test('a value grown in place pushes out the least recently used, which leaves its wallets', () => {
    const cache = createWalletIndexedCache<Value>({ maxSize: 10, sizeOf: (value) => value.size, walletsOf: (value) => value.wallets });
    const older = { wallets: ['a'], size: 4 };
    const newer = { wallets: ['b'], size: 4 };
    cache.set('older', older);
    cache.set('newer', newer);
    newer.size = 8;
    cache.resized('newer', newer);
    expect(cache.peek('older')).toBeUndefined();
    expect([...cache.keysOf('a')]).toEqual([]);
    expect([...cache.keysOf('b')]).toEqual(['newer']);
    cache.clear();
    expect([...cache.keysOf('b')]).toEqual([]);
  });
});
