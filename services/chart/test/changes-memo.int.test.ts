import { chartWindow } from '@wallet-api/core/charts';
import { setupChangeVersions } from '@wallet-api/core/testing';
import { createBucketedChanges, type BucketedChanges } from '../src/series/bucketed-changes.js';
import { createChangesMemo } from '../src/series/changes-memo.js';
import type { SeriesRequest } from '../src/store/chart-store.js';

// A wallet's bucketed changes kept under real chart tokens in Redis: price moves read the store
// no more, a change of any wallet of the scope or a rollback reads it again, and a failed read is
// not kept. The store counts its reads and answers the read's number, so a kept answer shows.

const connection = setupChangeVersions();
const { versions } = connection;
afterAll(() => connection.close());

const evm = '0x00000000000000000000000000000000000000aa';
const solana = 'So11111111111111111111111111111111111111112';
const window = chartWindow('day', 1_800_000_000);

function countingStore() {
  let reads = 0;
  let failNext = false;
  return {
    reads: () => reads,
    failNext: () => (failNext = true),
    async changes(): Promise<BucketedChanges> {
      reads++;
      if (failNext) {
        failNext = false;
        throw new Error('ClickHouse is away');
      }
      const changes = createBucketedChanges();
      changes.add({ chainId: 'ethereum', asset: '' }, 0, BigInt(reads));
      return changes;
    },
  };
}

const balanceOf = (changes: BucketedChanges) => changes.balances(1).get('ethereum:')!.balances[0];

test('price moves read nothing again; a change of either wallet of a set, or a rollback, reads again', async () => {
  const store = countingStore();
  const memo = createChangesMemo({ store, versions, maxEntries: 100 });
  const scope: SeriesRequest = { addresses: [evm, solana], chainIds: ['ethereum', 'solana'] };

  expect(balanceOf(await memo.changes(scope, window))).toBe(1n);
  for (let move = 0; move < 3; move++) await versions.pricesChanged();
  expect(balanceOf(await memo.changes(scope, window))).toBe(1n);

  await versions.walletsChanged([solana], 'charts');
  expect(balanceOf(await memo.changes(scope, window))).toBe(2n);
  await versions.walletsChanged([evm], 'holdings');
  expect(balanceOf(await memo.changes(scope, window))).toBe(2n);
  await versions.walletsChanged([evm], 'charts');
  expect(balanceOf(await memo.changes(scope, window))).toBe(3n);
  await versions.everythingChanged();
  expect(balanceOf(await memo.changes(scope, window))).toBe(4n);
  // Another window of the same wallets is a read of its own.
  await memo.changes(scope, chartWindow('week', 1_800_000_000));
  expect(store.reads()).toBe(5);
});

test('a failed read is not kept', async () => {
  const store = countingStore();
  const memo = createChangesMemo({ store, versions, maxEntries: 100 });
  const scope: SeriesRequest = { addresses: [evm], chainIds: ['ethereum'] };
  store.failNext();
  await expect(memo.changes(scope, window)).rejects.toThrow('ClickHouse is away');
  expect(balanceOf(await memo.changes(scope, window))).toBe(2n);
  expect(balanceOf(await memo.changes(scope, window))).toBe(2n);
});
