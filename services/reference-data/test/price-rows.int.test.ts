// The fold's rows waiting for their INSERT (PriceRows, five minutes in production, an hour here),
// against the real ClickHouse: the lookups on the request path read them from memory before they
// are stored and the same once they are, the reads of a restart or refold and every rollback store
// them first, and a round stores the day mark after its prices and the events after both.
import { identifier, sql } from '@wallet-api/core/clickhouse';
import { setupClickHouseDatabase, testLogger, uniqueName, type ClickHouseDatabase } from '@wallet-api/core/testing';
import type { ChainPoolEvent } from '../src/prices/chain-pool-event.js';
import { createPoolEventStore, type PoolEventStore } from '../src/store/pool-event-store.js';
import { createPriceRows, type PriceRows } from '../src/store/price-rows.js';
import { createPriceStore, type PriceStore } from '../src/store/price-store.js';

const chainId = 'rows-chain';
const token = '0x00000000000000000000000000000000000000a1';
const pool = '0x00000000000000000000000000000000000000c3';
const start = 1_790_000_000;
const day = Math.floor(start / 86_400);
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function poolEvent(block: number, logIndex: number): ChainPoolEvent {
  return {
    chainId,
    blockNumber: BigInt(block),
    blockHash: hash(block),
    blockTimestamp: start + block,
    transactionIndex: 0,
    logIndex,
    kind: 'v2',
    pool,
    token0: token,
    token1: '0x00000000000000000000000000000000000000b2',
    reserve0: 10n ** 21n,
    reserve1: 2n * 10n ** 21n,
    sqrtPriceX96: 0n,
    liquidity: 0n,
    volume0: 5n,
    volume1: 0n,
    factory: '0xf',
    fee: 3_000,
  };
}

describe('price rows waiting for their INSERT', () => {
  let database: ClickHouseDatabase;
  let rows: PriceRows;
  let prices: PriceStore;
  let events: PoolEventStore;

  const storedCount = async (table: 'token_prices' | 'token_volumes' | 'price_days' | 'pool_events') =>
    Number((await database.clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM ${identifier(table)}`))[0]!.n);

  beforeAll(async () => {
    database = await setupClickHouseDatabase(uniqueName('price_rows'));
    rows = createPriceRows({ clickhouse: database.clickhouse, logger: testLogger, storeEveryMs: 3_600_000 });
    prices = createPriceStore(database.clickhouse, rows);
    events = createPoolEventStore(database.clickhouse, rows);
  });
  afterAll(async () => {
    await rows.close();
    await database.drop();
  });

  test('lookups read waiting rows at once, and read the same once they are stored', async () => {
    await prices.write(chainId, {
      prices: [{ token, day, timestamp: start + 1, blockNumber: 1n, blockHash: hash(1), price: 2.5, depthUsd: 100 }],
      days: [{ day, timestamp: start + 1, blockNumber: 1n, blockHash: hash(1) }],
      volumes: [{ token, pool, timestamp: start + 1, blockNumber: 1n, blockHash: hash(1), logIndex: 0, amount: 4, valueUsd: 10 }],
    });
    await events.insert([poolEvent(1, 0)]);
    for (const table of ['token_prices', 'token_volumes', 'price_days', 'pool_events'] as const) expect(await storedCount(table)).toBe(0);

    const read = async () => ({
      marks: await prices.dayMarks([chainId]),
      days: (await prices.dayPrices([{ chainId, token, day, since: 0 }])).map(({ revision: _revision, ...row }) => row),
      volumes: await prices.volumeRows([chainId], start),
      priced: await prices.pricedTokens(),
      keys: [...(await events.storedKeys(chainId, [poolEvent(1, 0), poolEvent(1, 1)]))],
    });
    const waiting = await read();
    expect(waiting).toEqual({
      marks: [{ chainId, day, timestamp: start + 1 }],
      days: [{ chainId, token, day, timestamp: start + 1, blockNumber: 1, blockHash: hash(1), price: 2.5, depthUsd: 100 }],
      volumes: [{ chainId, token, timestamp: start + 1, swap: `${hash(1)}:0`, valueUsd: 10 }],
      priced: [{ chainId, token }],
      keys: [`${hash(1)}:0`],
    });

    // A restart's read stores what waits first: the newest event is there.
    expect(await events.head(chainId)).toEqual({ number: 1n, hash: hash(1), timestamp: start + 1 });
    for (const table of ['token_prices', 'token_volumes', 'price_days', 'pool_events'] as const) expect(await storedCount(table)).toBe(1);
    expect(await read()).toEqual(waiting);
  });

  test('a rewritten row (a refold) wins by revision whether it waits or is stored; a rollback stores what waits before it lands', async () => {
    await prices.write(chainId, {
      prices: [],
      days: [],
      volumes: [{ token, pool, timestamp: start + 2, blockNumber: 2n, blockHash: hash(2), logIndex: 0, amount: 1, valueUsd: 7 }],
    });
    await rows.flush();
    await prices.write(chainId, {
      prices: [],
      days: [],
      volumes: [{ token, pool, timestamp: start + 2, blockNumber: 2n, blockHash: hash(2), logIndex: 0, amount: 1, valueUsd: 9 }],
    });
    expect((await prices.volumeRows([chainId], start + 2)).map((row) => row.valueUsd)).toEqual([9]);

    await prices.write(chainId, {
      prices: [],
      days: [],
      volumes: [{ token, pool, timestamp: start + 3, blockNumber: 3n, blockHash: hash(3), logIndex: 0, amount: 1, valueUsd: 5 }],
    });
    await events.recordRollback({
      chainId,
      commonAncestorNumber: '2',
      commonAncestorHash: hash(2),
      orphanedBlockHashes: [hash(3)],
      orphanedBlockNumbers: ['3'],
      sequence: '10',
    });
    expect(rows.waitingIn('token_volumes')).toEqual([]);
    // Stored, then hidden by the rollback like every stored row of an orphaned block.
    expect((await prices.volumeRows([chainId], start + 2)).map((row) => row.valueUsd)).toEqual([9]);
  });
});
