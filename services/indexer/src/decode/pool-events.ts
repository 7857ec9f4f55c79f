import { PoolKind, type PoolEvent } from '@wallet-api/core/proto/events';
import { decodeEventLog, parseAbi, toEventSelector, type AbiEvent, type Hex } from 'viem';
import type { ReceiptLog } from './log-event.js';

export type UniswapPoolKind = PoolKind.POOL_KIND_UNISWAP_V2 | PoolKind.POOL_KIND_UNISWAP_V3;

/**
 * What one pool log says about its pool, before the pool's immutable facts (tokens, factory, fee)
 * are known. Amounts in base units; V2 logs carry no price or liquidity (both 0).
 */
export interface PoolLog {
  kind: UniswapPoolKind;
  /** Lowercase. */
  pool: string;
  transactionIndex: number;
  logIndex: number;
  reserve0: bigint;
  reserve1: bigint;
  sqrtPriceX96: bigint;
  liquidity: bigint;
  volume0: bigint;
  volume1: bigint;
}

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

const [v2Sync, v2Swap, v3Initialize, v3Swap] = parseAbi([
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
]);

const topics = {
  v2Sync: toEventSelector(v2Sync),
  v2Swap: toEventSelector(v2Swap),
  v3Initialize: toEventSelector(v3Initialize),
  v3Swap: toEventSelector(v3Swap),
};

const q96 = 1n << 96n;

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

/**
 * The Uniswap pool logs of a block's receipts, in log order, one per log. A V2 pair emits Sync
 * with its new reserves right before every Swap, so a V2 Swap carries the reserves of the
 * transaction's last Sync of that pair and a Sync carries volume 0; a V2 Swap with no such Sync
 * is no pair's and is left out, as is a V3 log with a zero price (no pool can have one).
 * V2 volumes are amountIn + amountOut per token (a flash swap moves a token both ways).
 */
export function decodePoolLogs(receipts: readonly PoolReceipt[]): PoolLog[] {
  const pools: PoolLog[] = [];
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
        pools.push({ kind: PoolKind.POOL_KIND_UNISWAP_V2, ...at, ...reserves, sqrtPriceX96: 0n, liquidity: 0n, volume0: 0n, volume1: 0n });
      } else if (topic === topics.v2Swap) {
        const args = argsOf(v2Swap, log);
        const reserves = lastSync.get(at.pool);
        if (!args || !reserves) continue;
        pools.push({
          kind: PoolKind.POOL_KIND_UNISWAP_V2,
          ...at,
          ...reserves,
          sqrtPriceX96: 0n,
          liquidity: 0n,
          volume0: args.amount0In! + args.amount0Out!,
          volume1: args.amount1In! + args.amount1Out!,
        });
      } else if (topic === topics.v3Initialize) {
        const args = argsOf(v3Initialize, log);
        if (!args || args.sqrtPriceX96 === 0n) continue;
        // A pool is initialized before anyone can add liquidity to it: no liquidity, no reserves.
        pools.push({ kind: PoolKind.POOL_KIND_UNISWAP_V3, ...at, reserve0: 0n, reserve1: 0n, sqrtPriceX96: args.sqrtPriceX96!, liquidity: 0n, volume0: 0n, volume1: 0n });
      } else if (topic === topics.v3Swap) {
        const args = argsOf(v3Swap, log);
        if (!args || args.sqrtPriceX96 === 0n) continue;
        pools.push({
          kind: PoolKind.POOL_KIND_UNISWAP_V3,
          ...at,
          ...virtualReserves(args.liquidity!, args.sqrtPriceX96!),
          sqrtPriceX96: args.sqrtPriceX96!,
          liquidity: args.liquidity!,
          volume0: abs(args.amount0!),
          volume1: abs(args.amount1!),
        });
      }
    }
  }
  return pools;
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
