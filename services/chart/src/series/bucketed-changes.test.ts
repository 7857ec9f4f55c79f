import { bucketOf, createBucketedChanges, pointCount } from './bucketed-changes.js';

const window = { beginAt: 1_000, endAt: 1_100, intervalSeconds: 10 };

describe('bucketed changes', () => {
  it.each([
    [0, 0],
    [1_000, 0],
    [1_001, 1],
    [1_010, 1],
    [1_011, 2],
    [1_100, 10],
  ])('a change at %s counts from point %s on', (time, bucket) => {
    expect(bucketOf(window, time)).toBe(bucket);
  });

  it('balances are the running sums of the buckets, per asset', () => {
    const changes = createBucketedChanges();
    const eth = { chainId: 'ethereum', asset: '' };
    const usdc = { chainId: 'ethereum', asset: '0xa0b8' };
    changes.add(eth, 0, 5n);
    changes.add(eth, 3, -2n);
    changes.add(eth, 3, 1n);
    changes.add(usdc, 10, 7n);
    const balances = changes.balances(pointCount(window));
    expect(pointCount(window)).toBe(11);
    expect(balances.get('ethereum:')!.balances).toEqual([5n, 5n, 5n, 4n, 4n, 4n, 4n, 4n, 4n, 4n, 4n]);
    expect(balances.get('ethereum:0xa0b8')!.balances).toEqual([0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 7n]);
  });
});
