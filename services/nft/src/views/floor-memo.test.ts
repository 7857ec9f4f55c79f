import { createFloorMemo } from './floor-memo.js';

// A store answering from a table the test changes, recording what each read asked for.
function tableStore() {
  const floors = new Map<string, bigint>([
    ['1:0xa', 10n],
    ['1:0xb', 20n],
  ]);
  const asked: string[][] = [];
  let hold: Promise<void> | undefined;
  return {
    floors,
    asked,
    /** Holds the next read's answer (taken when it was asked) until `release` is called. */
    holdNextRead(): () => void {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return release;
    },
    store: {
      async floors(collections: readonly { chainId: string; contract: string }[]) {
        const keys = collections.map((collection) => `${collection.chainId}:${collection.contract}`);
        asked.push(keys);
        const answer = new Map(keys.flatMap((key) => (floors.has(key) ? [[key, floors.get(key)!] as const] : [])));
        const held = hold;
        hold = undefined;
        await held;
        return answer;
      },
    },
  };
}

const a = { chainId: '1', contract: '0xa' };
const b = { chainId: '1', contract: '0xb' };
const unlisted = { chainId: '1', contract: '0xc' };

test('readers of one version share what was read: only collections no reader asked are read, those without a floor included', async () => {
  const { store, asked } = tableStore();
  const memo = createFloorMemo(store);
  expect(await memo.floors([a, unlisted], 'v1')).toEqual(new Map([['1:0xa', 10n]]));
  expect(await memo.floors([a, b, unlisted], 'v1')).toEqual(
    new Map([
      ['1:0xa', 10n],
      ['1:0xb', 20n],
    ]),
  );
  expect(await memo.floors([b, a], 'v1')).toEqual(
    new Map([
      ['1:0xb', 20n],
      ['1:0xa', 10n],
    ]),
  );
  expect(asked).toEqual([['1:0xa', '1:0xc'], ['1:0xb']]);
});

test('a new version reads again, and a read that outlived its version answers its caller without being kept', async () => {
  const table = tableStore();
  const memo = createFloorMemo(table.store);
  expect(await memo.floors([a], 'v1')).toEqual(new Map([['1:0xa', 10n]]));
  table.floors.set('1:0xa', 9n);
  expect(await memo.floors([a], 'v2')).toEqual(new Map([['1:0xa', 9n]]));

  // A v2 read held until v3's read of the same collection, after the floor moved again, is done.
  const release = table.holdNextRead();
  const late = memo.floors([b], 'v2');
  table.floors.set('1:0xb', 30n);
  expect(await memo.floors([b], 'v3')).toEqual(new Map([['1:0xb', 30n]]));
  release();
  expect(await late).toEqual(new Map([['1:0xb', 20n]]));
  // v3 keeps its own read, not the late v2 one.
  expect(await memo.floors([b], 'v3')).toEqual(new Map([['1:0xb', 30n]]));
  expect(table.asked).toEqual([['1:0xa'], ['1:0xa'], ['1:0xb'], ['1:0xb']]);
});

test('beyond maxCollections of one version the memo starts afresh', async () => {
  const { store, asked } = tableStore();
  const memo = createFloorMemo(store, { maxCollections: 2 });
  await memo.floors([a, b, unlisted], 'v1');
  await memo.floors([a], 'v1');
  expect(asked).toEqual([['1:0xa', '1:0xb', '1:0xc'], ['1:0xa']]);
});
