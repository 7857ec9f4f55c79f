import type { ChainPoolEvent, PoolBlock } from './chain-pool-event.js';
import { createPriceBook } from './price-book.js';
import { dayOf, foldBlocks, type ChainFold, type FoldOptions } from './price-fold.js';

const usdc = '0x00000000000000000000000000000000000000a1';
const weth = '0x00000000000000000000000000000000000000b2';
const pool = '0x00000000000000000000000000000000000000f1';
const day = 20_000 * 86_400;

function block(number: number, timestamp: number, reserves: [number, number], volumes: [bigint, bigint] = [0n, 0n]): PoolBlock {
  const event: ChainPoolEvent = {
    chainId: 'ethereum',
    blockNumber: BigInt(number),
    blockHash: `0xh${number}`,
    blockTimestamp: timestamp,
    transactionIndex: 0,
    logIndex: 1,
    kind: 'v2',
    pool,
    token0: usdc,
    token1: weth,
    reserve0: BigInt(reserves[0]) * 10n ** 6n,
    reserve1: BigInt(reserves[1]) * 10n ** 18n,
    sqrtPriceX96: 0n,
    liquidity: 0n,
    volume0: volumes[0],
    volume1: volumes[1],
    factory: '0xf',
    fee: 0,
  };
  return { number: BigInt(number), hash: event.blockHash, timestamp, events: [event] };
}

const newFold = (): ChainFold => ({
  book: createPriceBook({ usdStablecoins: new Set([usdc]), wrappedNative: weth, minLiquidityUsd: 0, maxDeviation: 0.1 }),
  head: undefined,
  recent: [],
  recentFloor: -1n,
});
const options: FoldOptions = { meta: () => ({ decimals0: 6, decimals1: 18 }), collapse: true, recentDepth: 3n };

describe('price fold', () => {
  test("a day's first block writes every price and a day mark; later changes keep a minute's last one", () => {
    const fold = newFold();
    const out = foldBlocks(
      fold,
      [
        block(1, day + 10, [3000, 1]),
        block(2, day + 20, [3100, 1]),
        block(3, day + 30, [3200, 1]),
        block(4, day + 70, [3300, 1]),
        block(5, day + 86_400, [3400, 1]),
      ],
      options,
    );
    expect(out.days).toEqual([
      { day: dayOf(day), timestamp: day + 10, blockNumber: 1n, blockHash: '0xh1' },
      { day: dayOf(day) + 1, timestamp: day + 86_400, blockNumber: 5n, blockHash: '0xh5' },
    ]);
    expect(out.prices.map((row) => [row.blockNumber, Math.round(row.price! * 1e6) / 1e6])).toEqual([
      [1n, 3000],
      [3n, 3200],
      [4n, 3300],
      [5n, 3400],
    ]);
    expect(fold.head).toEqual({ number: 5n, hash: '0xh5', timestamp: day + 86_400 });
    expect(fold.recent.map((entry) => entry.number)).toEqual([3n, 4n, 5n]);
    expect(fold.recentFloor).toBe(2n);
  });

  test('without collapsing, and with rows to rewrite, every change and every listed token gets its row', () => {
    const fold = newFold();
    foldBlocks(fold, [block(1, day + 10, [3000, 1])], options);
    const out = foldBlocks(fold, [block(2, day + 20, [3000, 1]), block(3, day + 30, [3200, 1])], {
      ...options,
      collapse: false,
      rewrite: new Map([['0xh2', new Set([weth])]]),
    });
    expect(out.prices.map((row) => [row.blockNumber, row.price])).toEqual([
      [2n, 3000],
      [3n, 3200],
    ]);
    expect(out.days).toEqual([]);
  });

  test("values each side of a swap at the token's price after the block; untrusted pools change nothing", () => {
    const fold = newFold();
    const out = foldBlocks(fold, [block(1, day, [3000, 1], [600n * 10n ** 6n, 2n * 10n ** 17n])], options);
    expect(out.volumes.map((row) => [row.token, row.amount, row.valueUsd])).toEqual([
      [usdc, 600, 600],
      [weth, 0.2, 600],
    ]);
    const untrusted = foldBlocks(newFold(), [block(1, day, [3000, 1], [1n, 1n])], { ...options, meta: () => undefined });
    expect(untrusted.prices).toEqual([]);
    expect(untrusted.volumes).toEqual([]);
  });
});
