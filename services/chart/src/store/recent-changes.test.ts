import { AssetKind } from '@wallet-api/core/proto/events';
import { toBalanceChangeRow, type BalanceChangeRow } from './balance-change-rows.js';
import { createRecentChanges, type RecentChange } from './recent-changes.js';

const row = (change: { address?: string; chain?: string; block: number; amount: bigint; time?: number }): BalanceChangeRow =>
  toBalanceChangeRow({
    chainId: change.chain ?? 'ethereum',
    wallet: change.address ?? '0xa',
    asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' },
    blockNumber: String(change.block),
    blockHash: `0x${change.block}`,
    blockTimestamp: String(change.time ?? 1_000 + change.block),
    transactionHash: `0x${change.block}`,
    transactionIndex: 0,
    amount: change.amount.toString(),
  })!;
const total = (changes: readonly RecentChange[]) => changes.reduce((sum, change) => sum + change.amount, 0n);
const scope = { addresses: ['0xa'], chainIds: ['ethereum'] };

describe('recent changes', () => {
  let everything: string;
  let reads: number;
  let stored: BalanceChangeRow[];
  let orphaned: Set<string>;
  let release: (() => void) | undefined;
  const recent = (maxChanges = 1_000) =>
    createRecentChanges({
      async read(_scope, after) {
        reads += 1;
        // Held until released: the answer then has what was stored meanwhile.
        if (release !== undefined) await new Promise<void>((resolve) => (release = resolve));
        return stored.filter((candidate) => candidate.block_timestamp > after);
      },
      orphaned: async () => orphaned,
      everything: async () => everything,
      maxChanges,
    });

  beforeEach(() => {
    everything = 'e1';
    reads = 0;
    stored = [row({ block: 1, amount: 5n }), row({ block: 2, amount: 7n })];
    orphaned = new Set();
    release = undefined;
  });

  test('read once; rows added later are taken in, a copy once, other chains and rows up to `after` not', async () => {
    const changes = recent();
    expect(total(await changes.changes(scope, 1_000))).toBe(12n);
    changes.added([
      row({ block: 3, amount: 100n }),
      row({ block: 3, amount: 100n }),
      row({ block: 4, amount: 1n, chain: 'base' }),
      row({ block: 5, amount: 9n, time: 999 }),
    ]);
    changes.added([row({ block: 2, amount: 7n })]);
    expect(total(await changes.changes(scope, 1_000))).toBe(112n);
    expect(reads).toBe(1);
  });

  test('a scope that grows is counted as it is now: past the budget it pushes out the least recently used scope, which is read again', async () => {
    const changes = recent(10);
    const other = { addresses: ['0xb'], chainIds: ['ethereum'] };
    await changes.changes(other, 1_000);
    await changes.changes(scope, 1_000);
    expect(reads).toBe(2);
    changes.added(Array.from({ length: 6 }, (_, index) => row({ block: 10 + index, amount: 1n })));
    expect(total(await changes.changes(scope, 1_000))).toBe(18n);
    expect(reads).toBe(2);
    await changes.changes(other, 1_000);
    expect(reads).toBe(3);
  });

  test('rows added while the read runs are taken in once it is done, once even when the read has them too', async () => {
    const changes = recent();
    release = () => undefined;
    const first = changes.changes(scope, 1_000);
    await new Promise((resolve) => setImmediate(resolve));
    const late = row({ block: 3, amount: 100n });
    stored.push(late);
    changes.added([late, row({ block: 4, amount: 1_000n })]);
    release!();
    expect(total(await first)).toBe(1_112n);
  });

  test('orphaned blocks are left out, and a new everything token reads the scope again', async () => {
    const changes = recent();
    orphaned = new Set(['ethereum:0x2']);
    expect(total(await changes.changes(scope, 1_000))).toBe(5n);
    stored.push(row({ block: 8, amount: 40n }));
    expect(total(await changes.changes(scope, 1_000))).toBe(5n);
    everything = 'e2';
    orphaned = new Set();
    expect(total(await changes.changes(scope, 1_000))).toBe(52n);
    expect(reads).toBe(2);
  });
});
