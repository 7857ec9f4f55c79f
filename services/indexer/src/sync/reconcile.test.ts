import type { Hash } from 'viem';
import { findCommonAncestor, reconcile, type BlockRef, type Header } from './reconcile.js';

/** A hash naming its branch and height, so expectations read like the chain they describe. */
const hash = (branch: string, number: number): Hash => `0x${branch}${number.toString(16).padStart(4, '0')}` as Hash;
const ref = (branch: string, number: number): BlockRef => ({ number: BigInt(number), hash: hash(branch, number) });
const header = (branch: string, number: number, parentBranch = branch): Header => ({
  ...ref(branch, number),
  parentHash: hash(parentBranch, number - 1),
});

const window = [10, 11, 12, 13, 14].map((number) => ref('aa', number));

describe('reconcile', () => {
  test.each([
    { name: 'empty window accepts the first header', window: [], header: header('aa', 10), expected: { type: 'extend' } },
    { name: 'child of the tip', window, header: header('aa', 15), expected: { type: 'extend' } },
    { name: 'tip seen again', window, header: header('aa', 14), expected: { type: 'known' } },
    { name: 'older block seen again', window, header: header('aa', 11), expected: { type: 'known' } },
    {
      name: 'sibling of the tip',
      window,
      header: header('bb', 14, 'aa'),
      expected: { type: 'reorg', commonAncestor: ref('aa', 13), orphaned: [ref('aa', 14)] },
    },
    {
      name: 'new branch from inside the window',
      window,
      header: header('bb', 12, 'aa'),
      expected: { type: 'reorg', commonAncestor: ref('aa', 11), orphaned: [ref('aa', 12), ref('aa', 13), ref('aa', 14)] },
    },
    { name: 'next height on another branch', window, header: header('bb', 15), expected: { type: 'detached' } },
    { name: 'parent unknown below the tip', window, header: header('bb', 13), expected: { type: 'detached' } },
    { name: 'tip as parent at the wrong height', window, header: { ...ref('bb', 16), parentHash: hash('aa', 14) }, expected: { type: 'detached' } },
    { name: 'gap above the tip', window, header: header('aa', 17), expected: { type: 'detached' } },
  ])('$name', ({ window, header, expected }) => {
    expect(reconcile(window, header)).toEqual(expected);
  });
});

describe('findCommonAncestor', () => {
  /** The canonical chain: branch `aa` up to `forkAfter`, branch `bb` above it. */
  const chain = (forkAfter: number) => async (number: bigint) => hash(Number(number) <= forkAfter ? 'aa' : 'bb', Number(number));

  test.each([
    { name: 'nothing orphaned when the tip is canonical', forkAfter: 14, expected: { type: 'reorg', commonAncestor: ref('aa', 14), orphaned: [] } },
    { name: 'one block orphaned', forkAfter: 13, expected: { type: 'reorg', commonAncestor: ref('aa', 13), orphaned: [ref('aa', 14)] } },
    {
      name: 'deepest block of the window as ancestor',
      forkAfter: 10,
      expected: { type: 'reorg', commonAncestor: ref('aa', 10), orphaned: [11, 12, 13, 14].map((number) => ref('aa', number)) },
    },
    { name: 'fork below the window', forkAfter: 9, expected: { type: 'reorg-too-deep' } },
  ])('$name', async ({ forkAfter, expected }) => {
    await expect(findCommonAncestor(window, chain(forkAfter))).resolves.toEqual(expected);
  });

  test('asks the chain no deeper than the ancestor', async () => {
    const asked: bigint[] = [];
    await findCommonAncestor(window, async (number) => {
      asked.push(number);
      return chain(12)(number);
    });
    expect(asked).toEqual([14n, 13n, 12n]);
  });
});
