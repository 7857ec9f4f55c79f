// The set of tokens with price rows, in the real Redis and built from the real ClickHouse: lookups
// of tokens that never had a price read nothing, tokens written before the set existed or while it
// was lost are still read, and a token gets into the set before its first rows are stored.
import type { ChangeVersions } from '@wallet-api/core/cache';
import { testLogger, setupChangeVersions, setupClickHouseDatabase, uniqueName, type ClickHouseDatabase } from '@wallet-api/core/testing';
import { createPriceHistory, type PriceHistory } from '../src/prices/price-history.js';
import { createPricedTokens, recordingPricedTokens, type PricedTokens } from '../src/prices/priced-tokens.js';
import { createPriceStore, latestTimestamp, type PriceStore } from '../src/store/price-store.js';

const chainId = 'priced-chain';
const daySeconds = 86_400;
const day = 20_100;
const token = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const [before, recorded, never, later] = [token(0xb1), token(0xb2), token(0xb3), token(0xb4)];

describe('priced tokens', () => {
  let database: ClickHouseDatabase;
  let versions: ChangeVersions;
  let redis: ReturnType<typeof setupChangeVersions>['redis'];
  let keyPrefix: string;
  let closeVersions: () => void;
  let store: PriceStore;
  let priced: PricedTokens;
  let history: PriceHistory;
  /** The tokens each dayPrices call asked for, in order. */
  let reads: string[][];
  let block = 0;

  beforeAll(async () => {
    database = await setupClickHouseDatabase(uniqueName('priced_tokens'));
    ({ versions, redis, keyPrefix, close: closeVersions } = setupChangeVersions());
    store = createPriceStore(database.clickhouse);
    priced = createPricedTokens({ redis, keyPrefix, store, logger: testLogger });
    reads = [];
    const recording = {
      dayMarks: (chainIds: readonly string[]) => store.dayMarks(chainIds),
      dayPrices: (days: Parameters<PriceStore['dayPrices']>[0]) => {
        reads.push([...new Set(days.map((entry) => entry.token))].sort());
        return store.dayPrices(days);
      },
    };
    history = createPriceHistory({ store: recording, versions, chainIds: [chainId], priced });
  });
  afterAll(async () => {
    closeVersions();
    await database.drop();
  });

  /** One block's price of `of` (with the day's mark), stored through `through` as the price consumer would. */
  async function storePrice(through: Pick<PriceStore, 'write'>, of: string, price: number): Promise<void> {
    block += 1;
    const blockHash = `0x${block.toString(16).padStart(64, '0')}`;
    const timestamp = day * daySeconds + block;
    await through.write(chainId, {
      prices: [{ token: of, day, timestamp, blockNumber: BigInt(block), blockHash, price, depthUsd: 1_000 }],
      days: [{ day, timestamp, blockNumber: BigInt(block), blockHash }],
      volumes: [],
    });
    await versions.pricesChanged();
  }

  const pricesNow = async (...tokens: string[]) => {
    reads = [];
    return (await history.pricesAt(tokens.map((of) => ({ chainId, token: of, timestamp: latestTimestamp })))).map((answer) => answer?.price);
  };
  const unpricedOf = async (...tokens: string[]) => {
    const unpriced = await priced.unpriced(tokens.map((of) => ({ chainId, token: of })));
    return unpriced && [...unpriced].sort();
  };
  const key = (of: string) => `${chainId}:${of}`;

  test('until the set is built from the stored rows, every token is read', async () => {
    await storePrice(store, before, 2);
    // The lookup finds no complete set (and starts building it), so it reads both tokens.
    expect(await pricesNow(before, never)).toEqual([2, undefined]);
    expect(reads).toEqual([[before, never].sort()]);

    await priced.ensureComplete();
    expect(await unpricedOf(before, never)).toEqual([key(never)]);
    // After a price move the current day is read again, now for the priced token alone.
    await versions.pricesChanged();
    expect(await pricesNow(before, never)).toEqual([2, undefined]);
    expect(reads).toEqual([[before]]);
  });

  test('a token never priced is answered without a read; one the fold prices is in the set before its rows', async () => {
    const recordingStore = recordingPricedTokens(store, priced);
    await storePrice(recordingStore, recorded, 3);
    expect(await unpricedOf(recorded, never, later)).toEqual([key(later), key(never)].sort());
    expect(await pricesNow(never, later)).toEqual([undefined, undefined]);
    expect(reads).toEqual([]);
    expect(await pricesNow(recorded, never)).toEqual([3, undefined]);
    expect(reads).toEqual([[recorded]]);

    await storePrice(recordingStore, later, 4);
    expect(await pricesNow(later, never)).toEqual([4, undefined]);
  });

  test('a lost set is read through until it is built again', async () => {
    await redis.del(`${keyPrefix}:priced-tokens`);
    expect(await pricesNow(before, never)).toEqual([2, undefined]);
    expect(reads).toEqual([[before, never].sort()]);

    await priced.ensureComplete();
    expect(await unpricedOf(before, recorded, later, never)).toEqual([key(never)]);
  });
});
