import { applyPoolDiff, diffPool, type PoolEntry } from './pool-diff.js';

describe('a pending pool snapshot across polls', () => {
  const entry = (hash: string, firstSeenMs: number, decoded?: string): PoolEntry<string> => ({ hash, firstSeenMs, decoded });

  test.each<[string, [string, PoolEntry<string>][], string[], { added: string[]; removed: string[] }, Record<string, [number, string | undefined]>]>([
    ['an idle pool stays empty', [], [], { added: [], removed: [] }, {}],
    ['a new transaction enters first seen now, undecoded', [], ['0xa'], { added: ['0xa'], removed: [] }, { '0xa': [5_000, undefined] }],
    [
      'one still pending keeps its first-seen time and decoding',
      [['0xa', entry('0xa', 1_000, 'A')]],
      ['0xa'],
      { added: [], removed: [] },
      { '0xa': [1_000, 'A'] },
    ],
    [
      'mined or dropped ones leave, new ones enter',
      [
        ['0xa', entry('0xa', 1_000, 'A')],
        ['0xb', entry('0xb', 2_000, 'B')],
      ],
      ['0xb', '0xc'],
      { added: ['0xc'], removed: ['0xa'] },
      { '0xb': [2_000, 'B'], '0xc': [5_000, undefined] },
    ],
    [
      'a pool emptied by a block',
      [
        ['0xa', entry('0xa', 1_000, 'A')],
        ['0xb', entry('0xb', 2_000)],
      ],
      [],
      { added: [], removed: ['0xa', '0xb'] },
      {},
    ],
  ])('%s', (_name, known, current, diff, after) => {
    const snapshot = new Map(known);
    expect(diffPool(snapshot, current)).toEqual(diff);
    const next = applyPoolDiff(snapshot, diff, 5_000);
    expect(Object.fromEntries([...next].map(([hash, { firstSeenMs, decoded }]) => [hash, [firstSeenMs, decoded]]))).toEqual(after);
    // The previous snapshot is left as it was, for readers holding it.
    expect(snapshot).toEqual(new Map(known));
  });
});
