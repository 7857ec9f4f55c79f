import { firstBlockWithCode } from './deployment-dates.js';

describe('firstBlockWithCode', () => {
  test.each([
    [0n, 0n],
    [0n, 10n],
    [7n, 10n],
    [10n, 10n],
    [1n, 1_000_000n],
    [999_999n, 1_000_000n],
  ])('code from block %s with the head at %s', async (created, head) => {
    const reads: bigint[] = [];
    const found = await firstBlockWithCode(async (block) => {
      reads.push(block);
      return block >= created;
    }, head);
    expect(found).toBe(created);
    // A binary search: about log2(head) reads.
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(Math.log2(Number(head) + 1)) + 1);
  });
});
