// The price history kept in memory, against the real ClickHouse and Redis: answers equal what the
// stored rows say at every step, days the fold has left are read once, the current day is read
// again only from its newest row after a price move, and a rollback reads everything anew.
import type { ChangeVersions } from '@wallet-api/core/cache';
import { setupChangeVersions, setupClickHouseDatabase, uniqueName, type ClickHouseDatabase } from '@wallet-api/core/testing';
import { createPriceHistory, type PriceHistory } from '../src/prices/price-history.js';
import { createPriceStore, latestTimestamp, type PriceStore } from '../src/store/price-store.js';

const chainId = 'history-chain';
const token = '0x00000000000000000000000000000000000000a1';
const daySeconds = 86_400;
const firstDay = 20_000;
const dayStart = (day: number) => day * daySeconds;

describe('price history in memory', () => {
  let database: ClickHouseDatabase;
  let versions: ChangeVersions;
  let closeVersions: () => void;
  let store: PriceStore;
  let history: PriceHistory;
  /** The store, with every dayPrices call recorded in `reads`. */
  let recording: Pick<PriceStore, 'dayMarks' | 'dayPrices'>;
  /** What each dayPrices call asked for, in order. */
  let reads: { day: number; since: number }[][];
  let block = 0;

  beforeAll(async () => {
    database = await setupClickHouseDatabase(uniqueName('price_history'));
    ({ versions, close: closeVersions } = setupChangeVersions());
    store = createPriceStore(database.clickhouse);
    reads = [];
    recording = {
      dayMarks: (chainIds) => store.dayMarks(chainIds),
      dayPrices: (days) => {
        reads.push(days.map(({ day, since }) => ({ day, since })));
        return store.dayPrices(days);
      },
    };
    history = createPriceHistory({ store: recording, versions, chainIds: [chainId] });
  });
  afterAll(async () => {
    closeVersions();
    await database.drop();
  });

  /** Stores one block's price of the token (and the day's mark when `marksDay`), as the price consumer would. */
  async function storeBlock(timestamp: number, price: number | undefined, marksDay = false): Promise<string> {
    block += 1;
    const blockHash = `0x${block.toString(16).padStart(64, '0')}`;
    const day = Math.floor(timestamp / daySeconds);
    await store.write(chainId, {
      prices: [{ token, day, timestamp, blockNumber: BigInt(block), blockHash, price, depthUsd: 1_000 }],
      days: marksDay ? [{ day, timestamp, blockNumber: BigInt(block), blockHash }] : [],
      volumes: [],
    });
    return blockHash;
  }

  const priceAt = async (...times: number[]) =>
    (await history.pricesAt(times.map((timestamp) => ({ chainId, token, timestamp })))).map((answer) => answer?.price);

  test('answers from the stored rows, then from memory until a price move', async () => {
    await storeBlock(dayStart(firstDay) + 10, 10, true);
    await storeBlock(dayStart(firstDay) + 70, 11);
    await storeBlock(dayStart(firstDay + 1) + 5, 12, true);
    await versions.pricesChanged();

    expect(await priceAt(dayStart(firstDay) + 5, dayStart(firstDay) + 30, dayStart(firstDay) + 71, dayStart(firstDay + 1) + 4, latestTimestamp)).toEqual([
      undefined,
      10,
      11,
      11,
      12,
    ]);
    expect(reads).toEqual([
      [
        { day: firstDay, since: 0 },
        { day: firstDay + 1, since: 0 },
      ],
    ]);

    // Stored but not yet announced: the next answers are those of the tokens in force.
    await storeBlock(dayStart(firstDay + 1) + 60, 13);
    expect(await priceAt(dayStart(firstDay) + 71, latestTimestamp)).toEqual([11, 12]);
    expect(reads).toHaveLength(1);
  });

  test('a price move reads the current day from its newest row only; days the fold has left are kept', async () => {
    reads = [];
    await versions.pricesChanged();
    expect(await priceAt(dayStart(firstDay) + 71, dayStart(firstDay + 1) + 30, latestTimestamp)).toEqual([11, 12, 13]);
    expect(reads).toEqual([[{ day: firstDay + 1, since: dayStart(firstDay + 1) + 5 }]]);
  });

  test('a lost price reads as none, and a new day mark closes the day before after one last read', async () => {
    reads = [];
    await storeBlock(dayStart(firstDay + 1) + 120, undefined);
    await storeBlock(dayStart(firstDay + 2) + 1, 14, true);
    await versions.pricesChanged();
    expect(await priceAt(dayStart(firstDay + 1) + 119, dayStart(firstDay + 1) + 121, latestTimestamp)).toEqual([13, undefined, 14]);
    expect(reads).toEqual([
      [
        { day: firstDay + 1, since: dayStart(firstDay + 1) + 60 },
        { day: firstDay + 2, since: 0 },
      ],
    ]);

    reads = [];
    await versions.pricesChanged();
    expect(await priceAt(dayStart(firstDay + 1) + 119, latestTimestamp)).toEqual([13, 14]);
    expect(reads).toEqual([[{ day: firstDay + 2, since: dayStart(firstDay + 2) + 1 }]]);
  });

  test('a rollback hides its blocks and every day is read again', async () => {
    reads = [];
    const orphan = await storeBlock(dayStart(firstDay + 2) + 30, 15);
    await versions.pricesChanged();
    expect(await priceAt(latestTimestamp)).toEqual([15]);

    await database.clickhouse.insert('block_states', [{ chain_id: chainId, block_hash: orphan, block_number: String(block), orphaned: 1, sequence: '1' }]);
    await versions.everythingChanged();
    reads = [];
    expect(await priceAt(dayStart(firstDay) + 71, latestTimestamp)).toEqual([11, 14]);
    expect(reads).toEqual([
      [
        { day: firstDay, since: 0 },
        { day: firstDay + 2, since: 0 },
      ],
    ]);
  });

  test('lookups asked together while a read runs share it', async () => {
    await versions.pricesChanged();
    reads = [];
    const [first, second] = await Promise.all([priceAt(latestTimestamp), priceAt(latestTimestamp, dayStart(firstDay) + 30)]);
    expect([first, second]).toEqual([[14], [14, 10]]);
    expect(reads).toEqual([[{ day: firstDay + 2, since: dayStart(firstDay + 2) + 1 }]]);
  });

  test('a price move prepared before its announcement is answered without a read', async () => {
    await storeBlock(dayStart(firstDay + 2) + 90, 16);
    reads = [];
    await versions.pricesChanged((tokens) => history.prepare(tokens));
    expect(reads).toEqual([[{ day: firstDay + 2, since: dayStart(firstDay + 2) + 1 }]]);
    reads = [];
    expect(await priceAt(latestTimestamp, dayStart(firstDay + 2) + 89, dayStart(firstDay) + 30)).toEqual([16, 14, 10]);
    expect(reads).toEqual([]);
  });

  test('current days nobody read lately are not prepared', async () => {
    const idle = createPriceHistory({ store: recording, versions, chainIds: [chainId], preparedForMs: 50 });
    expect((await idle.pricesAt([{ chainId, token, timestamp: latestTimestamp }]))[0]?.price).toBe(16);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await storeBlock(dayStart(firstDay + 2) + 120, 17);
    reads = [];
    await versions.pricesChanged((tokens) => idle.prepare(tokens));
    expect(reads).toEqual([]);
    expect((await idle.pricesAt([{ chainId, token, timestamp: latestTimestamp }]))[0]?.price).toBe(17);
    expect(reads).toHaveLength(1);
  });
});
