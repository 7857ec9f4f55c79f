import { chartWindow } from '@wallet-api/core/charts';
import { AssetKind, type BalanceChange } from '@wallet-api/core/proto/events';
import { setupClickHouseDatabase, testLogger, uniqueName, type ClickHouseDatabase } from '@wallet-api/core/testing';
import { pointCount } from '../src/series/bucketed-changes.js';
import { toBalanceChangeRow, type BalanceChangeRow } from '../src/store/balance-change-rows.js';
import { createChartStore, type ChartStore } from '../src/store/chart-store.js';

// The chart store on a ClickHouse database of its own: the same changes give the same balances
// whether they wait in memory, are stored, or both; copies count once; orphaned blocks' changes
// count nowhere until a newer block state revives them.

const wallet = '0x00000000000000000000000000000000000000aa';
const token = '0x00000000000000000000000000000000000000bb';
const now = 1_800_000_000;
const window = chartWindow('hour', now);
const max = (1n << 256n) - 1n;

let database: ClickHouseDatabase;
const stores: ChartStore[] = [];
/** The rollback token the stores read (the chart consumer replaces the real one after each rollback). */
let everything = 0;
const storeOptions = { logger: testLogger, everything: async () => String(everything), now: () => now * 1000 };

function change(block: number, amount: bigint, options: { asset?: string; time?: number; transactionIndex?: number } = {}): BalanceChangeRow {
  const message: BalanceChange = {
    chainId: 'ethereum',
    wallet,
    asset:
      options.asset === undefined
        ? { kind: AssetKind.ASSET_KIND_ERC20, address: token, tokenId: '' }
        : { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' },
    blockNumber: String(block),
    blockHash: `0x${block.toString(16).padStart(64, '0')}`,
    blockTimestamp: String(options.time ?? window.beginAt - 100 + block * 10),
    transactionHash: `0x${'1'.repeat(64)}`,
    transactionIndex: options.transactionIndex ?? 0,
    amount: amount.toString(),
  };
  return toBalanceChangeRow(message)!;
}

async function balances(store: ChartStore): Promise<Record<string, bigint[]>> {
  const changes = await store.changes({ addresses: [wallet], chainIds: ['ethereum'] }, window);
  return Object.fromEntries([...changes.balances(pointCount(window))].map(([key, entry]) => [key, entry.balances]));
}

function newStore(storeEveryMs: number): ChartStore {
  const store = createChartStore({ clickhouse: database.clickhouse, storeEveryMs, ...storeOptions });
  stores.push(store);
  return store;
}

beforeEach(async () => {
  database = await setupClickHouseDatabase(uniqueName('chart_store'));
});

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await database.drop();
});

const rows = [
  change(1, max),
  change(2, -(max - 5n)),
  change(3, 10n ** 18n, { asset: '' }),
  change(20, 7n),
  change(20, 8n, { transactionIndex: 1 }),
  change(300, -2n),
];

test('stored, waiting or split: the same balances at every point, exact beyond 2^128', async () => {
  const stored = newStore(0);
  await (await stored.add(rows)).durable;
  const expected = await balances(stored);
  const token0 = expected[`ethereum:${token}`]!;
  expect(token0[0]).toBe(5n);
  expect(token0.at(-1)).toBe(5n + 7n + 8n - 2n);
  expect(expected['ethereum:']!.every((balance) => balance === 10n ** 18n)).toBe(true);

  const fresh = await setupClickHouseDatabase(uniqueName('chart_store'));
  const waiting = createChartStore({ clickhouse: fresh.clickhouse, storeEveryMs: 600_000, ...storeOptions });
  await waiting.add(rows);
  expect(await balances(waiting)).toEqual(expected);
  await waiting.close();
  await fresh.drop();

  // Half stored, half waiting, and copies of both halves waiting again (a redelivery after a restart).
  const split = newStore(600_000);
  await (await newStore(0).add(rows.slice(0, 3))).durable;
  await split.add([...rows.slice(3), ...rows]);
  await split.add(rows.slice(1, 4));
  expect(await balances(split)).toEqual(expected);
});

test('an orphaned block counts nowhere, a revived one counts again; first activity follows', async () => {
  const store = newStore(600_000);
  await (await newStore(0).add(rows.slice(0, 3))).durable;
  await store.add(rows.slice(3));
  expect(await store.firstActivity({ addresses: [wallet], chainIds: ['ethereum'] })).toBe(window.beginAt - 90);

  everything++;
  await store.recordRollback({
    chainId: 'ethereum',
    commonAncestorNumber: '0',
    commonAncestorHash: '',
    orphanedBlockHashes: [rows[0]!.block_hash, rows[3]!.block_hash],
    orphanedBlockNumbers: ['1', '20'],
    sequence: '10',
  });
  const orphaned = await balances(store);
  expect(orphaned[`ethereum:${token}`]![0]).toBe(-(max - 5n));
  expect(orphaned[`ethereum:${token}`]!.at(-1)).toBe(-(max - 5n) - 2n);
  expect(await store.firstActivity({ addresses: [wallet], chainIds: ['ethereum'] })).toBe(window.beginAt - 80);

  everything++;
  await database.clickhouse.insert('block_states', [
    { chain_id: 'ethereum', block_hash: rows[0]!.block_hash, block_number: '1', orphaned: 0, sequence: '11' },
    { chain_id: 'ethereum', block_hash: rows[3]!.block_hash, block_number: '20', orphaned: 0, sequence: '11' },
  ]);
  expect((await balances(store))[`ethereum:${token}`]!.at(-1)).toBe(5n + 7n + 8n - 2n);
});

test('other wallets, chains and times after the window are left out', async () => {
  const store = newStore(0);
  const elsewhere = { ...change(5, 100n), chain_id: 'base' };
  const later = change(6, 1_000n, { time: window.endAt + 1 });
  const other = { ...change(7, 50n), address: '0x00000000000000000000000000000000000000cc' };
  await (await store.add([elsewhere, later, other, change(8, 3n)])).durable;
  expect(await balances(store)).toEqual({ [`ethereum:${token}`]: Array.from({ length: pointCount(window) }, () => 3n) });
  expect(await store.firstActivity({ addresses: ['0x00000000000000000000000000000000000000dd'], chainIds: ['ethereum'] })).toBeUndefined();
});

test('old days are read once as day sums: a change on one of them or a rollback reads them again', async () => {
  const day = 86_400;
  const year = chartWindow('year', now);
  const yearBalances = async (store: ChartStore) => {
    const changes = await store.changes({ addresses: [wallet], chainIds: ['ethereum'] }, year);
    return changes.balances(pointCount(year)).get(`ethereum:${token}`)!.balances;
  };
  const old = [change(1, 100n, { time: now - 200 * day }), change(2, -30n, { time: now - 200 * day + 5 }), change(3, 7n, { time: now - 10 * day - 1 })];
  const store = newStore(600_000);
  await (await newStore(0).add(old)).durable;
  const first = await yearBalances(store);
  expect(first.at(-1)).toBe(77n);
  // A row stored behind the store's back is not seen while the day sums hold: they are not read again per request.
  await (await newStore(0).add([change(4, 1_000n, { time: now - 100 * day })])).durable;
  expect(await yearBalances(store)).toEqual(first);
  // A change on a summarised day through the store itself is.
  await store.add([change(5, 5n, { time: now - 50 * day })]);
  expect((await yearBalances(store)).at(-1)).toBe(77n + 1_000n + 5n);
  // Today's changes are never summarised: they count at once, and in the hour chart too.
  await store.add([change(6, 1n, { time: now - 60 })]);
  const hour = await balances(store);
  expect(hour[`ethereum:${token}`]!.at(-1)).toBe(77n + 1_000n + 5n + 1n);
  expect(hour[`ethereum:${token}`]![0]).toBe(77n + 1_000n + 5n);
  // A rollback replaces the token: the summarised day of the orphaned block is read again.
  everything++;
  await store.recordRollback({
    chainId: 'ethereum',
    commonAncestorNumber: '0',
    commonAncestorHash: '',
    orphanedBlockHashes: [old[0]!.block_hash],
    orphanedBlockNumbers: ['1'],
    sequence: '20',
  });
  expect((await yearBalances(store)).at(-1)).toBe(77n + 1_000n + 5n - 100n);
  expect(await store.firstActivity({ addresses: [wallet], chainIds: ['ethereum'] })).toBe(now - 200 * day + 5);
});

test('whole-hour points read the hours after their first day as hour sums: each change in the point it belongs to, a change through the store counted at once', async () => {
  const day = 86_400;
  const month = chartWindow('month', now);
  const monthBalances = async (store: ChartStore) => {
    const changes = await store.changes({ addresses: [wallet], chainIds: ['ethereum'] }, month);
    return changes.balances(pointCount(month)).get(`ethereum:${token}`)!.balances;
  };
  /** Each point's balance worked out from the changes themselves: every change at or before the point's time. */
  const expected = (changes: readonly BalanceChangeRow[]) =>
    Array.from({ length: pointCount(month) }, (_, point) =>
      changes.filter((row) => row.block_timestamp <= month.beginAt + point * month.intervalSeconds).reduce((sum, row) => sum + BigInt(row.l0), 0n),
    );
  const boundary = month.beginAt + 100 * month.intervalSeconds;
  const rows = [
    change(1, 1n, { time: now - 300 * day }),
    change(2, 2n, { time: month.beginAt - 3_600 }),
    change(3, 4n, { time: month.beginAt }),
    change(4, 8n, { time: month.beginAt + 1 }),
    change(5, 16n, { time: boundary }),
    change(6, 32n, { time: boundary + 1 }),
    change(7, 64n, { time: boundary + 3_600 }),
    change(8, 128n, { time: now - 2 * day - 1 }),
    change(9, 256n, { time: now - 30 }),
  ];
  const store = newStore(600_000);
  await (await newStore(0).add(rows)).durable;
  expect(await monthBalances(store)).toEqual(expected(rows));
  // A row stored behind the store's back on a summarised hour is not seen: the hours are not read per request.
  const behind = change(10, 512n, { time: boundary + 7_200 });
  await (await newStore(0).add([behind])).durable;
  expect(await monthBalances(store)).toEqual(expected(rows));
  // A change on a summarised hour through the store itself is counted in its point at once (and the hours read again).
  const later = change(11, 1_024n, { time: boundary + 2 });
  await store.add([later]);
  expect(await monthBalances(store)).toEqual(expected([...rows, behind, later]));
});

test('the changes after the summarised days are read once: a window that moves on, and changes through the store (a copy once), are summed from memory', async () => {
  const scope = { addresses: [wallet], chainIds: ['ethereum'] };
  const lastBalance = async (store: ChartStore, of = window) =>
    (await store.changes(scope, of)).balances(pointCount(of)).get(`ethereum:${token}`)!.balances.at(-1);
  const store = newStore(600_000);
  await (await newStore(0).add([change(1, 100n, { time: now - 3_000 }), change(2, 20n, { time: now - 2_000 })])).durable;
  expect(await lastBalance(store)).toBe(120n);
  // A row stored behind the store's back is not seen: the scope's changes are not read per request.
  await (await newStore(0).add([change(3, 1_000n, { time: now - 1_000 })])).durable;
  expect(await lastBalance(store)).toBe(120n);
  // A change through the store counts at once, and a copy of it delivered again does not count twice.
  const added = change(4, 3n, { time: now - 500 });
  await store.add([added]);
  await store.add([added]);
  expect(await lastBalance(store)).toBe(123n);
  // Ten minutes later the hour chart has moved on by 60 points; its changes come from memory still.
  const later = chartWindow('hour', now + 600);
  expect(await lastBalance(store, later)).toBe(123n);
  // A rollback or a revived block replaces the token: the changes are read again, the row stored behind the store's back with them.
  everything++;
  expect(await lastBalance(store)).toBe(1_123n);
});
