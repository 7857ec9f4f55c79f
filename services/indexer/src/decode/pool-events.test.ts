import { PoolKind } from '@wallet-api/core/proto/events';
import { encodeAbiParameters, encodeEventTopics, parseAbi, type Hex } from 'viem';
import {
  poolsNeedingPriorState,
  readPoolLogs,
  resolvePoolLogs,
  toPoolEvent,
  virtualReserves,
  type PoolLog,
  type PoolReceipt,
  type V3PoolState,
} from './pool-events.js';

const pair = '0x00000000000000000000000000000000000000aa';
const otherPair = '0x00000000000000000000000000000000000000bb';
const pool = '0x00000000000000000000000000000000000000cc';
const mixedCasePool = '0x00000000000000000000000000000000000000CC';
const trader = '0x00000000000000000000000000000000000a11ce';
const q96 = 2n ** 96n;

const abi = parseAbi([
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
]);
const [sync, v2Swap, initialize, v3Swap, transfer, mint, burn] = abi;

type Event = (typeof abi)[number];
type LogInput = { address: string; topics: Hex[]; data: Hex };

function log(event: Event, address: string, indexed: readonly unknown[], values: readonly unknown[]): LogInput {
  const topics = encodeEventTopics({ abi: [event], eventName: event.name, args: indexed as never } as never) as Hex[];
  const data = encodeAbiParameters(
    event.inputs.filter((input) => !('indexed' in input && input.indexed)),
    values as never,
  );
  return { address, topics, data };
}

const syncLog = (address: string, reserve0: bigint, reserve1: bigint) => log(sync, address, [], [reserve0, reserve1]);
const v2SwapLog = (address: string, amount0In: bigint, amount1In: bigint, amount0Out: bigint, amount1Out: bigint) =>
  log(v2Swap, address, [trader, trader], [amount0In, amount1In, amount0Out, amount1Out]);
const initializeLog = (address: string, sqrtPriceX96: bigint, tick: number) => log(initialize, address, [], [sqrtPriceX96, tick]);
const v3SwapLog = (address: string, amount0: bigint, amount1: bigint, sqrtPriceX96: bigint, liquidity: bigint, tick: number) =>
  log(v3Swap, address, [trader, trader], [amount0, amount1, sqrtPriceX96, liquidity, tick]);
const transferLog = (address: string) => log(transfer, address, [trader, trader], [5n]);
const mintLog = (address: string, tickLower: number, tickUpper: number, amount: bigint) =>
  log(mint, address, [trader, tickLower, tickUpper], [trader, amount, 1n, 1n]);
const burnLog = (address: string, tickLower: number, tickUpper: number, amount: bigint) => log(burn, address, [trader, tickLower, tickUpper], [amount, 1n, 1n]);

/** Receipts in block order; log indexes count across the block as a node numbers them. */
function receipts(...transactions: LogInput[][]): PoolReceipt[] {
  let logIndex = 0;
  return transactions.map((logs, transactionIndex) => ({ transactionIndex, logs: logs.map((entry) => ({ ...entry, logIndex: logIndex++ })) }));
}

const v2 = PoolKind.POOL_KIND_UNISWAP_V2;
const v3 = PoolKind.POOL_KIND_UNISWAP_V3;
const noPrice = { sqrtPriceX96: 0n, liquidity: 0n };
const noVolume = { volume0: 0n, volume1: 0n };
/** A V3 state after a log that swapped nothing. */
const v3State = (liquidity: bigint, sqrtPriceX96: bigint) => ({ ...virtualReserves(liquidity, sqrtPriceX96), sqrtPriceX96, liquidity, ...noVolume });

const decode = (input: PoolReceipt[], prior: ReadonlyMap<string, V3PoolState> = new Map()) => resolvePoolLogs(readPoolLogs(input), prior);

describe('pool logs to pool states', () => {
  test.each<{ name: string; receipts: PoolReceipt[]; prior?: Map<string, V3PoolState>; expected: PoolLog[] }>([
    {
      name: 'a V2 Sync carries the reserves and no volume',
      receipts: receipts([syncLog(pair, 1_000n, 2_000n)]),
      expected: [{ kind: v2, pool: pair, transactionIndex: 0, logIndex: 0, reserve0: 1_000n, reserve1: 2_000n, ...noPrice, ...noVolume }],
    },
    {
      name: 'a V2 Swap carries the reserves of the Sync before it and what it swapped',
      receipts: receipts([transferLog(pair), syncLog(pair, 1_100n, 1_819n), v2SwapLog(pair, 100n, 0n, 0n, 181n)]),
      expected: [
        { kind: v2, pool: pair, transactionIndex: 0, logIndex: 1, reserve0: 1_100n, reserve1: 1_819n, ...noPrice, ...noVolume },
        { kind: v2, pool: pair, transactionIndex: 0, logIndex: 2, reserve0: 1_100n, reserve1: 1_819n, ...noPrice, volume0: 100n, volume1: 181n },
      ],
    },
    {
      name: 'a flash swap that pays a token back counts it both ways',
      receipts: receipts([syncLog(pair, 1_001n, 2_000n), v2SwapLog(pair, 501n, 0n, 500n, 0n)]),
      expected: [
        { kind: v2, pool: pair, transactionIndex: 0, logIndex: 0, reserve0: 1_001n, reserve1: 2_000n, ...noPrice, ...noVolume },
        { kind: v2, pool: pair, transactionIndex: 0, logIndex: 1, reserve0: 1_001n, reserve1: 2_000n, ...noPrice, volume0: 1_001n, volume1: 0n },
      ],
    },
    {
      name: 'a multi-hop swap gives each pair its own reserves',
      receipts: receipts([syncLog(pair, 10n, 20n), v2SwapLog(pair, 1n, 0n, 0n, 2n), syncLog(otherPair, 30n, 40n), v2SwapLog(otherPair, 0n, 2n, 3n, 0n)]),
      expected: [
        { kind: v2, pool: pair, transactionIndex: 0, logIndex: 0, reserve0: 10n, reserve1: 20n, ...noPrice, ...noVolume },
        { kind: v2, pool: pair, transactionIndex: 0, logIndex: 1, reserve0: 10n, reserve1: 20n, ...noPrice, volume0: 1n, volume1: 2n },
        { kind: v2, pool: otherPair, transactionIndex: 0, logIndex: 2, reserve0: 30n, reserve1: 40n, ...noPrice, ...noVolume },
        { kind: v2, pool: otherPair, transactionIndex: 0, logIndex: 3, reserve0: 30n, reserve1: 40n, ...noPrice, volume0: 3n, volume1: 2n },
      ],
    },
    {
      name: "a V2 Swap without a Sync of its pair in the same transaction is no pair's and is left out",
      receipts: receipts([syncLog(pair, 10n, 20n)], [v2SwapLog(pair, 1n, 0n, 0n, 2n)], [syncLog(otherPair, 1n, 1n), v2SwapLog(pair, 1n, 0n, 0n, 2n)]),
      expected: [
        { kind: v2, pool: pair, transactionIndex: 0, logIndex: 0, reserve0: 10n, reserve1: 20n, ...noPrice, ...noVolume },
        { kind: v2, pool: otherPair, transactionIndex: 2, logIndex: 2, reserve0: 1n, reserve1: 1n, ...noPrice, ...noVolume },
      ],
    },
    {
      name: 'a V3 Initialize sets the price; the pool has no liquidity yet',
      receipts: receipts([initializeLog(mixedCasePool, 2n * q96, 13_863)]),
      expected: [{ kind: v3, pool, transactionIndex: 0, logIndex: 0, reserve0: 0n, reserve1: 0n, sqrtPriceX96: 2n * q96, liquidity: 0n, ...noVolume }],
    },
    {
      name: 'a V3 Swap carries price, liquidity, virtual reserves and absolute amounts',
      receipts: receipts([transferLog(pool)], [v3SwapLog(pool, -250n, 1_000n, 2n * q96, 1_000_000n, 13_863)]),
      expected: [
        {
          kind: v3,
          pool,
          transactionIndex: 1,
          logIndex: 1,
          reserve0: 500_000n,
          reserve1: 2_000_000n,
          sqrtPriceX96: 2n * q96,
          liquidity: 1_000_000n,
          volume0: 250n,
          volume1: 1_000n,
        },
      ],
    },
    {
      name: "V2 and V3 logs of one block keep the block's log order",
      receipts: receipts([v3SwapLog(pool, 4n, -1n, q96, 7n, 0)], [syncLog(pair, 5n, 6n)]),
      expected: [
        { kind: v3, pool, transactionIndex: 0, logIndex: 0, reserve0: 7n, reserve1: 7n, sqrtPriceX96: q96, liquidity: 7n, volume0: 4n, volume1: 1n },
        { kind: v2, pool: pair, transactionIndex: 1, logIndex: 1, reserve0: 5n, reserve1: 6n, ...noPrice, ...noVolume },
      ],
    },
    {
      name: "a V3 log with a zero price is no pool's",
      receipts: receipts([initializeLog(pool, 0n, 0), v3SwapLog(pool, 1n, -1n, 0n, 5n, 0)]),
      expected: [],
    },
    {
      name: 'a Sync topic with another layout is left out',
      receipts: receipts([
        { ...syncLog(pair, 1n, 2n), data: '0x01' },
        { ...syncLog(pair, 1n, 2n), topics: [...syncLog(pair, 1n, 2n).topics, `0x${'00'.repeat(32)}`] },
      ]),
      expected: [],
    },
    {
      name: 'receipts without pool logs give nothing',
      receipts: receipts([], [transferLog(pair)]),
      expected: [],
    },
    {
      name: 'a V3 Mint around the tick of the Swap before it adds its liquidity; one beside it adds none',
      receipts: receipts([v3SwapLog(pool, 1n, -1n, 2n * q96, 1_000n, 13_863)], [mintLog(pool, 13_800, 13_900, 500n), mintLog(pool, 0, 13_800, 700n)]),
      expected: [
        { kind: v3, pool, transactionIndex: 0, logIndex: 0, ...v3State(1_000n, 2n * q96), volume0: 1n, volume1: 1n },
        { kind: v3, pool, transactionIndex: 1, logIndex: 1, ...v3State(1_500n, 2n * q96) },
        { kind: v3, pool, transactionIndex: 1, logIndex: 2, ...v3State(1_500n, 2n * q96) },
      ],
    },
    {
      name: 'a position starting at the tick is in range, one ending at it is not (tickLower <= tick < tickUpper)',
      receipts: receipts([initializeLog(pool, q96, 0), mintLog(pool, 0, 60, 10n), mintLog(pool, -60, 0, 20n), burnLog(pool, -60, 60, 0n)]),
      expected: [
        { kind: v3, pool, transactionIndex: 0, logIndex: 0, ...v3State(0n, q96) },
        { kind: v3, pool, transactionIndex: 0, logIndex: 1, ...v3State(10n, q96) },
        { kind: v3, pool, transactionIndex: 0, logIndex: 2, ...v3State(10n, q96) },
      ],
    },
    {
      name: "a V3 Burn before any Swap of the block takes from the pool's liquidity before the block",
      receipts: receipts([burnLog(mixedCasePool, -600, 600, 300n)], [v3SwapLog(pool, -5n, 5n, q96, 700n, 1), burnLog(pool, -600, 600, 100n)]),
      prior: new Map([[pool, { sqrtPriceX96: 2n * q96, tick: 5, liquidity: 1_000n }]]),
      expected: [
        { kind: v3, pool, transactionIndex: 0, logIndex: 0, ...v3State(700n, 2n * q96) },
        { kind: v3, pool, transactionIndex: 1, logIndex: 1, ...v3State(700n, q96), volume0: 5n, volume1: 5n },
        { kind: v3, pool, transactionIndex: 1, logIndex: 2, ...v3State(600n, q96) },
      ],
    },
    {
      name: 'a position change of a pool whose state is unknown is left out',
      receipts: receipts([mintLog(pool, -60, 60, 10n), syncLog(pair, 1n, 2n)]),
      expected: [{ kind: v2, pool: pair, transactionIndex: 0, logIndex: 1, reserve0: 1n, reserve1: 2n, ...noPrice, ...noVolume }],
    },
  ])('$name', ({ receipts: input, prior, expected }) => {
    expect(decode(input, prior)).toEqual(expected);
  });
});

describe('poolsNeedingPriorState', () => {
  test.each<{ name: string; receipts: PoolReceipt[]; expected: string[] }>([
    { name: 'a Mint first', receipts: receipts([mintLog(pool, 0, 60, 1n), v3SwapLog(pool, 1n, -1n, q96, 1n, 0), burnLog(pool, 0, 60, 1n)]), expected: [pool] },
    { name: 'a Swap first', receipts: receipts([v3SwapLog(pool, 1n, -1n, q96, 1n, 0), mintLog(pool, 0, 60, 1n)]), expected: [] },
    { name: 'an Initialize first', receipts: receipts([initializeLog(pool, q96, 0), mintLog(pool, 0, 60, 1n)]), expected: [] },
    { name: 'no position change', receipts: receipts([syncLog(pair, 1n, 1n), v3SwapLog(pool, 1n, -1n, q96, 1n, 0)]), expected: [] },
    { name: 'a Burn of nothing changes nothing', receipts: receipts([burnLog(pool, 0, 60, 0n)]), expected: [] },
  ])('$name', ({ receipts: input, expected }) => {
    expect(poolsNeedingPriorState(readPoolLogs(input))).toEqual(expected);
  });
});

describe('virtualReserves', () => {
  test.each([
    { name: 'price 1', liquidity: 1_000n, sqrtPriceX96: q96, expected: { reserve0: 1_000n, reserve1: 1_000n } },
    { name: 'price 4 (sqrt 2)', liquidity: 1_000n, sqrtPriceX96: 2n * q96, expected: { reserve0: 500n, reserve1: 2_000n } },
    { name: 'rounds down', liquidity: 10n, sqrtPriceX96: 3n * q96, expected: { reserve0: 3n, reserve1: 30n } },
    { name: 'no liquidity', liquidity: 0n, sqrtPriceX96: 5n * q96, expected: { reserve0: 0n, reserve1: 0n } },
    {
      name: 'the largest liquidity at a price near the top keeps every digit',
      liquidity: 2n ** 128n - 1n,
      sqrtPriceX96: 2n ** 159n,
      expected: { reserve0: 36893488147419103231n, reserve1: 3138550867693340381917894711603833208041954350195162480640n },
    },
  ])('$name', ({ liquidity, sqrtPriceX96, expected }) => {
    expect(virtualReserves(liquidity, sqrtPriceX96)).toEqual(expected);
  });
});

describe('toPoolEvent', () => {
  test("joins the log, its block and the pool's facts into decimal strings", () => {
    const poolLog: PoolLog = {
      kind: v3,
      pool,
      transactionIndex: 3,
      logIndex: 17,
      reserve0: 500n,
      reserve1: 2_000n,
      sqrtPriceX96: 2n * q96,
      liquidity: 1_000n,
      volume0: 250n,
      volume1: 1_000n,
    };
    const event = toPoolEvent({ chainId: 'ethereum', number: 42n, hash: '0xabc', timestamp: 1_700_000_000n }, poolLog, {
      token0: '0x01',
      token1: '0x02',
      factory: '0x03',
      fee: 500,
    });
    expect(event).toEqual({
      chainId: 'ethereum',
      blockNumber: '42',
      blockHash: '0xabc',
      blockTimestamp: '1700000000',
      transactionIndex: 3,
      logIndex: 17,
      kind: v3,
      pool,
      token0: '0x01',
      token1: '0x02',
      reserve0: '500',
      reserve1: '2000',
      sqrtPriceX96: (2n * q96).toString(),
      liquidity: '1000',
      volume0: '250',
      volume1: '1000',
      factory: '0x03',
      fee: 500,
    });
  });
});
