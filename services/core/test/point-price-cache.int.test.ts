import { setupChangeVersions } from '@wallet-api/core/testing';
import { createPointPriceCache, type PriceLookupKey } from '@wallet-api/core/reference-data';

// Kept point prices (the chart service's and the gateway's transaction pages') against real change tokens in Redis: a price move drops
// exactly the prices from its earliest time on, a rollback or a move of unknown time drops them
// all, and answers read under tokens the cache has moved past are never kept.

const now = 1_800_000_000;
const connection = setupChangeVersions();
const { versions } = connection;
const key = (timestamp: number, asset = 'eth'): PriceLookupKey => ({ currency: 'usd', network: 0, chainId: '', asset, timestamp });

afterAll(() => connection.close());

test('a price move drops the kept prices from its earliest time on, and no others', async () => {
  const cache = createPointPriceCache({ versions, settleSeconds: 600, maxEntries: 1_000, now: () => now * 1000 });
  const baseline = await cache.refresh();
  cache.keep(baseline, [
    { key: key(now - 7_200), price: 100 },
    { key: key(now - 3_600), price: 110 },
    { key: key(now - 3_600, 'usdc'), price: undefined },
    // Not settled yet: never kept.
    { key: key(now - 60), price: 120 },
  ]);
  expect([cache.get(key(now - 7_200)), cache.get(key(now - 3_600)), cache.get(key(now - 3_600, 'usdc')), cache.get(key(now - 60))]).toEqual([
    100,
    110,
    undefined,
    null,
  ]);

  await versions.pricesChanged(undefined, { since: now - 5_000 });
  await versions.pricesChanged(undefined, { since: now - 100 });
  expect(await versions.pricesMovedSince(baseline.prices)).toBe(now - 5_000);
  // Answers read under the old tokens come too late once the cache moved on.
  const moved = await cache.refresh();
  cache.keep(baseline, [{ key: key(now - 7_000), price: 1 }]);
  expect([cache.get(key(now - 7_200)), cache.get(key(now - 3_600)), cache.get(key(now - 3_600, 'usdc')), cache.get(key(now - 7_000))]).toEqual([
    100,
    null,
    null,
    null,
  ]);
  expect(await versions.pricesMovedSince(moved.prices)).toBe(Infinity);

  cache.keep(moved, [{ key: key(now - 3_600), price: 111 }]);
  expect(cache.get(key(now - 3_600))).toBe(111);
});

test('a move of unknown time, a token the log no longer holds, or a rollback drop everything', async () => {
  const cache = createPointPriceCache({ versions, settleSeconds: 600, maxEntries: 1_000, now: () => now * 1000 });
  const fill = async () => {
    const baseline = await cache.refresh();
    cache.keep(baseline, [{ key: key(now - 7_200), price: 100 }]);
    expect(cache.get(key(now - 7_200))).toBe(100);
  };
  await fill();
  await versions.pricesChanged();
  await cache.refresh();
  expect(cache.get(key(now - 7_200))).toBeNull();

  await fill();
  expect(await versions.pricesMovedSince('a token no move ever had')).toBeUndefined();

  await fill();
  await versions.everythingChanged();
  await cache.refresh();
  expect(cache.get(key(now - 7_200))).toBeNull();
});
