import { PoolKind, type PoolEvent } from '@wallet-api/core/proto/events';
import { decodeEventLog, parseAbi, toEventSelector, type AbiEvent, type Hex } from 'viem';
import type { ReceiptLog } from './log-event.js';

export type UniswapPoolKind = PoolKind.POOL_KIND_UNISWAP_V2 | PoolKind.POOL_KIND_UNISWAP_V3;

/** Where a pool log sits in its block; `pool` lowercase. */
export interface PoolLogPlace {
  kind: UniswapPoolKind;
  pool: string;
  transactionIndex: number;
  logIndex: number;
}

/**
 * A pool's state right after one of its logs, in base units: V2 reserves (price and liquidity 0);
 * V3 price, in-range liquidity and the virtual reserves they make. Volumes are what the log swapped.
 */
export interface PoolLog extends PoolLogPlace {
  reserve0: bigint;
  reserve1: bigint;
  sqrtPriceX96: bigint;
  liquidity: bigint;
  volume0: bigint;
  volume1: bigint;
}

/** What a V3 pool's next liquidity change depends on: the price, the tick it sits in and the in-range liquidity. */
export interface V3PoolState {
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
}

/**
 * A pool log as it reads: either it states the pool's state (V2 Sync and Swap, V3 Initialize and
 * Swap), or it changes one V3 position's liquidity (Mint, Burn), which moves the in-range
 * liquidity only when the position spans the current tick.
 */
export type RawPoolLog =
  | { type: 'state'; log: PoolLog; v3?: V3PoolState }
  | { type: 'position'; place: PoolLogPlace; tickLower: number; tickUpper: number; liquidityDelta: bigint };

/** What a pool answers about itself once and for ever; `fee` is 0 for V2. */
export interface PoolFacts {
  token0: string;
  token1: string;
  factory: string;
  fee: number;
}

export interface PoolReceipt {
  transactionIndex: number;
  logs: readonly (ReceiptLog & { logIndex: number })[];
}

const [v2Sync, v2Swap, v3Initialize, v3Swap, v3Mint, v3Burn] = parseAbi([
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
]);

const topics = {
  v2Sync: toEventSelector(v2Sync),
  v2Swap: toEventSelector(v2Swap),
  v3Initialize: toEventSelector(v3Initialize),
  v3Swap: toEventSelector(v3Swap),
  v3Mint: toEventSelector(v3Mint),
  v3Burn: toEventSelector(v3Burn),
};

const q96 = 1n << 96n;
const v2 = PoolKind.POOL_KIND_UNISWAP_V2;
const v3 = PoolKind.POOL_KIND_UNISWAP_V3;

/** V3 virtual reserves at a price and in-range liquidity: L * 2^96 / sqrtP and L * sqrtP / 2^96, rounded down. */
export function virtualReserves(liquidity: bigint, sqrtPriceX96: bigint): { reserve0: bigint; reserve1: bigint } {
  return { reserve0: (liquidity * q96) / sqrtPriceX96, reserve1: (liquidity * sqrtPriceX96) / q96 };
}

/** The event's arguments, or undefined when the log has the topic but not the layout (topics included). */
function argsOf(event: AbiEvent, log: ReceiptLog): Record<string, bigint> | undefined {
  if (log.topics.length !== 1 + event.inputs.filter((input) => input.indexed).length) return undefined;
  try {
    return decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true }).args as unknown as Record<string, bigint>;
  } catch {
    return undefined;
  }
}

const abs = (value: bigint) => (value < 0n ? -value : value);

function v3Log(place: PoolLogPlace, { sqrtPriceX96, liquidity }: V3PoolState, volume0: bigint, volume1: bigint): PoolLog {
  return { ...place, ...virtualReserves(liquidity, sqrtPriceX96), sqrtPriceX96, liquidity, volume0, volume1 };
}

/**
 * The Uniswap pool logs of a block's receipts, in log order. A V2 pair emits Sync with its new
 * reserves right before every Swap, so a V2 Swap states the reserves of the transaction's last
 * Sync of that pair and a Sync states volume 0; a V2 Swap with no such Sync is no pair's and is
 * left out, as is a V3 log with a zero price (no pool can have one) and a Mint or Burn of no
 * liquidity (it changes nothing). V2 volumes are amountIn + amountOut per token (a flash swap
 * moves a token both ways); V3 volumes are the absolute amounts.
 */
export function readPoolLogs(receipts: readonly PoolReceipt[]): RawPoolLog[] {
  const logs: RawPoolLog[] = [];
  for (const receipt of receipts) {
    const lastSync = new Map<string, { reserve0: bigint; reserve1: bigint }>();
    for (const log of receipt.logs) {
      const topic = log.topics[0]?.toLowerCase();
      const at = { pool: log.address.toLowerCase(), transactionIndex: receipt.transactionIndex, logIndex: log.logIndex };
      if (topic === topics.v2Sync) {
        const args = argsOf(v2Sync, log);
        if (!args) continue;
        const reserves = { reserve0: args.reserve0!, reserve1: args.reserve1! };
        lastSync.set(at.pool, reserves);
        logs.push({ type: 'state', log: { kind: v2, ...at, ...reserves, sqrtPriceX96: 0n, liquidity: 0n, volume0: 0n, volume1: 0n } });
      } else if (topic === topics.v2Swap) {
        const args = argsOf(v2Swap, log);
        const reserves = lastSync.get(at.pool);
        if (!args || !reserves) continue;
        const [volume0, volume1] = [args.amount0In! + args.amount0Out!, args.amount1In! + args.amount1Out!];
        logs.push({ type: 'state', log: { kind: v2, ...at, ...reserves, sqrtPriceX96: 0n, liquidity: 0n, volume0, volume1 } });
      } else if (topic === topics.v3Initialize) {
        const args = argsOf(v3Initialize, log);
        if (!args || args.sqrtPriceX96 === 0n) continue;
        // A pool is initialized before anyone can add liquidity to it.
        const state = { sqrtPriceX96: args.sqrtPriceX96!, tick: Number(args.tick), liquidity: 0n };
        logs.push({ type: 'state', log: v3Log({ kind: v3, ...at }, state, 0n, 0n), v3: state });
      } else if (topic === topics.v3Swap) {
        const args = argsOf(v3Swap, log);
        if (!args || args.sqrtPriceX96 === 0n) continue;
        const state = { sqrtPriceX96: args.sqrtPriceX96!, tick: Number(args.tick), liquidity: args.liquidity! };
        logs.push({ type: 'state', log: v3Log({ kind: v3, ...at }, state, abs(args.amount0!), abs(args.amount1!)), v3: state });
      } else if (topic === topics.v3Mint || topic === topics.v3Burn) {
        const mint = topic === topics.v3Mint;
        const args = argsOf(mint ? v3Mint : v3Burn, log);
        if (!args || args.amount === 0n) continue;
        const tickLower = Number(args.tickLower);
        const tickUpper = Number(args.tickUpper);
        logs.push({ type: 'position', place: { kind: v3, ...at }, tickLower, tickUpper, liquidityDelta: mint ? args.amount! : -args.amount! });
      }
    }
  }
  return logs;
}

/** V3 pools whose first log of the block changes a position: their state before the block is needed. */
export function poolsNeedingPriorState(logs: readonly RawPoolLog[]): string[] {
  const stated = new Set<string>();
  const needing = new Set<string>();
  for (const entry of logs) {
    if (entry.type === 'state') {
      if (!needing.has(entry.log.pool)) stated.add(entry.log.pool);
    } else if (!stated.has(entry.place.pool)) needing.add(entry.place.pool);
  }
  return [...needing];
}

/**
 * The state after every log, replaying V3 position changes from the state the logs before them
 * left (or `prior`, the pool's state before the block): like the pool itself, a change moves the
 * in-range liquidity when tickLower <= tick < tickUpper. Position changes of a pool without a known
 * state are left out.
 */
export function resolvePoolLogs(logs: readonly RawPoolLog[], prior: ReadonlyMap<string, V3PoolState>): PoolLog[] {
  const current = new Map(prior);
  const resolved: PoolLog[] = [];
  for (const entry of logs) {
    if (entry.type === 'state') {
      if (entry.v3) current.set(entry.log.pool, entry.v3);
      resolved.push(entry.log);
      continue;
    }
    const before = current.get(entry.place.pool);
    if (!before) continue;
    const inRange = entry.tickLower <= before.tick && before.tick < entry.tickUpper;
    const after = inRange ? { ...before, liquidity: before.liquidity + entry.liquidityDelta } : before;
    current.set(entry.place.pool, after);
    resolved.push(v3Log(entry.place, after, 0n, 0n));
  }
  return resolved;
}

export interface PoolBlock {
  chainId: string;
  number: bigint;
  /** Lowercase. */
  hash: string;
  timestamp: bigint;
}

export function toPoolEvent(block: PoolBlock, log: PoolLog, facts: PoolFacts): PoolEvent {
  return {
    chainId: block.chainId,
    blockNumber: block.number.toString(),
    blockHash: block.hash,
    blockTimestamp: block.timestamp.toString(),
    transactionIndex: log.transactionIndex,
    logIndex: log.logIndex,
    kind: log.kind,
    pool: log.pool,
    token0: facts.token0,
    token1: facts.token1,
    reserve0: log.reserve0.toString(),
    reserve1: log.reserve1.toString(),
    sqrtPriceX96: log.sqrtPriceX96.toString(),
    liquidity: log.liquidity.toString(),
    volume0: log.volume0.toString(),
    volume1: log.volume1.toString(),
    factory: facts.factory,
    fee: facts.fee,
  };
}
