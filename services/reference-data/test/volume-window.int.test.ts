// The trailing volume window kept in memory, against the real ClickHouse and Redis: every sum
// equals the stored canonical swaps after `since`, a price move reads only the chain's rows from
// its newest second on, a rollback reads everything anew without its orphaned swaps, and the
// window slides with `since` without a read.
import type { ChangeVersions } from '@wallet-api/core/cache';
import { setupChangeVersions, setupClickHouseDatabase, uniqueName, type ClickHouseDatabase } from '@wallet-api/core/testing';
import { createVolumeWindow, type VolumeWindow } from '../src/fungibles/volume-window.js';
import { createPriceStore, type PriceStore } from '../src/store/price-store.js';

const chainId = 'volume-chain';
const tokenA = '0x00000000000000000000000000000000000000a1';
const tokenB = '0x00000000000000000000000000000000000000b2';
const start = 1_790_000_000;

describe('trailing volumes in memory', () => {
  let database: ClickHouseDatabase;
  let versions: ChangeVersions;
  let closeVersions: () => void;
  let store: PriceStore;
  let window: VolumeWindow;
  /** The `since` of every volumeRows call, in order. */
  let reads: number[];
  let block = 0;
  /** Every stored swap, for the expected sums. */
  const swaps: { token: string; timestamp: number; valueUsd: number; blockHash: string }[] = [];
  const orphaned = new Set<string>();

  beforeAll(async () => {
    database = await setupClickHouseDatabase(uniqueName('volume_window'));
    ({ versions, close: closeVersions } = setupChangeVersions());
    store = createPriceStore(database.clickhouse);
    reads = [];
    window = createVolumeWindow({
      store: {
        volumeRows: (chainIds, since) => {
          reads.push(since);
          return store.volumeRows(chainIds, since);
        },
      },
      versions,
      slackSeconds: 0,
    });
  });
  afterAll(async () => {
    closeVersions();
    await database.drop();
  });

  /** Stores one block's swaps (token, USD value) at `timestamp`, as the price consumer would. */
  async function storeBlock(timestamp: number, moved: [string, number][]): Promise<string> {
    block += 1;
    const blockHash = `0x${block.toString(16).padStart(64, '0')}`;
    await store.write(chainId, {
      prices: [],
      days: [],
      volumes: moved.map(([token, valueUsd], logIndex) => ({
        token,
        pool: '0xpool',
        timestamp,
        blockNumber: BigInt(block),
        blockHash,
        logIndex,
        amount: valueUsd,
        valueUsd,
      })),
    });
    for (const [token, valueUsd] of moved) swaps.push({ token, timestamp, valueUsd, blockHash });
    return blockHash;
  }

  /** What the stored canonical swaps after `since` add up to, per token with any. */
  function expected(since: number): Map<string, number> {
    const sums = new Map<string, number>();
    for (const swap of swaps) {
      if (swap.timestamp <= since || orphaned.has(swap.blockHash)) continue;
      const key = `${chainId}:${swap.token}`;
      sums.set(key, (sums.get(key) ?? 0) + swap.valueUsd);
    }
    return sums;
  }

  const served = (since: number) =>
    window.volumesSince(
      [
        { chainId, token: tokenA },
        { chainId, token: tokenB },
      ],
      since,
    );

  test('the first answer reads the window once; answers until a price move read nothing', async () => {
    await storeBlock(start + 10, [
      [tokenA, 100],
      [tokenB, 7],
    ]);
    await storeBlock(start + 20, [[tokenA, 50]]);
    await versions.pricesChanged();
    expect(await served(start)).toEqual(expected(start));
    expect(await served(start)).toEqual(expected(start));
    expect(reads).toEqual([start]);

    // Stored but not announced yet: the answers of the tokens in force stand.
    await storeBlock(start + 30, [[tokenB, 3]]);
    expect(await served(start)).toEqual(
      new Map([
        [`${chainId}:${tokenA}`, 150],
        [`${chainId}:${tokenB}`, 7],
      ]),
    );
    expect(reads).toHaveLength(1);
  });

  test("a price move reads the chain from its newest second on, that second's swaps once", async () => {
    reads = [];
    // Another swap in the newest second: read again from there, the earlier one not counted twice.
    await storeBlock(start + 30, [[tokenA, 1]]);
    await versions.pricesChanged();
    expect(await served(start)).toEqual(expected(start));
    expect(reads).toEqual([start + 20]);
    reads = [];
    await versions.pricesChanged();
    expect(await served(start + 15)).toEqual(expected(start + 15));
    expect(reads).toEqual([start + 30]);
  });

  test('the window slides with since, and a since before it reads again', async () => {
    reads = [];
    expect(await served(start + 25)).toEqual(expected(start + 25));
    expect(await served(start + 100)).toEqual(expected(start + 100));
    expect(reads).toEqual([]);
    expect(await served(start)).toEqual(expected(start));
    expect(reads).toEqual([start]);
  });

  test('a rollback hides its swaps and the window is read anew', async () => {
    const orphan = await storeBlock(start + 40, [[tokenA, 1_000]]);
    await versions.pricesChanged();
    expect((await served(start)).get(`${chainId}:${tokenA}`)).toBe(1_151);

    await database.clickhouse.insert('block_states', [{ chain_id: chainId, block_hash: orphan, block_number: String(block), orphaned: 1, sequence: '1' }]);
    orphaned.add(orphan);
    await versions.everythingChanged();
    reads = [];
    expect(await served(start)).toEqual(expected(start));
    expect(reads).toEqual([start]);
  });

  test('callers asking together while a read runs share it', async () => {
    await storeBlock(start + 50, [[tokenB, 5]]);
    await versions.pricesChanged();
    reads = [];
    const [first, second] = await Promise.all([served(start), served(start + 45)]);
    expect([first, second]).toEqual([expected(start), expected(start + 45)]);
    expect(reads).toEqual([start + 30]);
  });

  test('a price move prepared under its tokens is read before it is in force; the answers after it read nothing', async () => {
    await storeBlock(start + 60, [[tokenA, 20]]);
    reads = [];
    await versions.pricesChanged(async (tokens) => {
      await window.prepare(tokens);
      expect(reads).toEqual([start + 50]);
    });
    // From where the last test's window starts (no slack): before it, the window would be read anew.
    expect(await served(start + 45)).toEqual(expected(start + 45));
    expect(reads).toEqual([start + 50]);
    // A prepare under tokens that a rollback has already replaced reads nothing.
    await versions.everythingChanged();
    reads = [];
    await window.prepare({ everything: 'before the rollback', prices: 'any' });
    expect(reads).toEqual([]);
  });
});
