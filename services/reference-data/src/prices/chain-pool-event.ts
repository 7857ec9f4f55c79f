import { PoolKind, type PoolEvent } from '@wallet-api/core/proto/events';

/** A PoolEvent message in the service's terms: amounts as bigints, addresses lowercase. */
export interface ChainPoolEvent {
  chainId: string;
  blockNumber: bigint;
  blockHash: string;
  /** Unix seconds. */
  blockTimestamp: number;
  transactionIndex: number;
  logIndex: number;
  kind: 'v2' | 'v3';
  pool: string;
  token0: string;
  token1: string;
  reserve0: bigint;
  reserve1: bigint;
  sqrtPriceX96: bigint;
  liquidity: bigint;
  volume0: bigint;
  volume1: bigint;
  factory: string;
  fee: number;
}

const kinds: Partial<Record<PoolKind, ChainPoolEvent['kind']>> = {
  [PoolKind.POOL_KIND_UNISWAP_V2]: 'v2',
  [PoolKind.POOL_KIND_UNISWAP_V3]: 'v3',
};

/** Undefined for a kind this service does not know (a newer producer's), which it leaves out. */
export function fromPoolEvent(message: PoolEvent): ChainPoolEvent | undefined {
  const kind = kinds[message.kind];
  if (!kind) return undefined;
  return {
    chainId: message.chainId,
    blockNumber: BigInt(message.blockNumber),
    blockHash: message.blockHash.toLowerCase(),
    blockTimestamp: Number(message.blockTimestamp),
    transactionIndex: message.transactionIndex,
    logIndex: message.logIndex,
    kind,
    pool: message.pool.toLowerCase(),
    token0: message.token0.toLowerCase(),
    token1: message.token1.toLowerCase(),
    reserve0: BigInt(message.reserve0 || '0'),
    reserve1: BigInt(message.reserve1 || '0'),
    sqrtPriceX96: BigInt(message.sqrtPriceX96 || '0'),
    liquidity: BigInt(message.liquidity || '0'),
    volume0: BigInt(message.volume0 || '0'),
    volume1: BigInt(message.volume1 || '0'),
    factory: message.factory.toLowerCase(),
    fee: message.fee,
  };
}

/** Events of one block, in log order. */
export interface PoolBlock {
  number: bigint;
  hash: string;
  timestamp: number;
  events: ChainPoolEvent[];
}

/** Splits events (in chain order) into their blocks; a hash change at the same height starts a new block. */
export function groupByBlock(events: readonly ChainPoolEvent[]): PoolBlock[] {
  const blocks: PoolBlock[] = [];
  for (const event of events) {
    const last = blocks.at(-1);
    if (last && last.hash === event.blockHash) last.events.push(event);
    else blocks.push({ number: event.blockNumber, hash: event.blockHash, timestamp: event.blockTimestamp, events: [event] });
  }
  return blocks;
}
