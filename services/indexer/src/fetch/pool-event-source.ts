import { PoolKind, type PoolEvent } from '@wallet-api/core/proto/events';
import {
  AbiDecodingDataSizeTooSmallError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  parseAbi,
  type Address,
  type Hash,
  type PublicClient,
} from 'viem';
import {
  poolsNeedingPriorState,
  readPoolLogs,
  resolvePoolLogs,
  toPoolEvent,
  type PoolFacts,
  type PoolLogPlace,
  type RawPoolLog,
  type UniswapPoolKind,
  type V3PoolState,
} from '../decode/pool-events.js';
import { defaultRetryPolicy, withRetry, type RetryPolicy } from '../sync/backoff.js';
import type { BlockBundle } from './block-bundle.js';

export interface PoolEventSourceOptions {
  client: Pick<PublicClient, 'readContract'>;
  retry?: RetryPolicy;
  onTransientError?: (error: unknown) => void;
  /** Pools (and contracts found not to be pools) remembered; the least recently seen go first. */
  maxCachedPools?: number;
}

export interface PoolEventSource {
  /** The block's Uniswap pool events in log order; logs of contracts that are not pools are left out. */
  eventsOf(bundle: BlockBundle): Promise<PoolEvent[]>;
}

const poolAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function factory() view returns (address)',
  'function fee() view returns (uint24)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
]);

const placeOf = (entry: RawPoolLog): PoolLogPlace => (entry.type === 'state' ? entry.log : entry.place);
const poolKey = (place: { kind: UniswapPoolKind; pool: string }) => `${place.kind}:${place.pool}`;

/** The contract answered, but not as a pool: it reverted, returned nothing or too little. */
function notAPool(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk(
      (cause) =>
        cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError || cause instanceof AbiDecodingDataSizeTooSmallError,
    ) !== null
  );
}

/**
 * Pool events with each pool's tokens, factory and fee, which no pool log carries. Those never
 * change, so they are read once per pool (at the block of the log, so the pool surely exists there;
 * by hash, so a block reorged away meanwhile fails the read instead of answering for another
 * branch) and remembered; a block without pool logs costs no call. A V3 Mint or Burn that comes
 * before any Swap of its pool in the block needs the pool's price and liquidity before the block:
 * two more calls, at the parent block.
 */
export function createPoolEventSource(options: PoolEventSourceOptions): PoolEventSource {
  const { client } = options;
  const retry = options.retry ?? defaultRetryPolicy;
  const maxCachedPools = options.maxCachedPools ?? 100_000;
  const factsCache = new Map<string, Promise<PoolFacts | undefined>>();

  async function readFacts(kind: UniswapPoolKind, pool: Address, blockHash: Hash): Promise<PoolFacts | undefined> {
    const read = (functionName: 'token0' | 'token1' | 'factory') => client.readContract({ address: pool, abi: poolAbi, functionName, blockHash });
    try {
      const [token0, token1, factory, fee] = await Promise.all([
        read('token0'),
        read('token1'),
        read('factory'),
        kind === PoolKind.POOL_KIND_UNISWAP_V3 ? client.readContract({ address: pool, abi: poolAbi, functionName: 'fee', blockHash }) : 0,
      ]);
      return { token0: token0.toLowerCase(), token1: token1.toLowerCase(), factory: factory.toLowerCase(), fee };
    } catch (error) {
      if (notAPool(error)) return undefined;
      throw error;
    }
  }

  async function readPriorState(pool: Address, parentHash: Hash): Promise<V3PoolState | undefined> {
    try {
      const [[sqrtPriceX96, tick], liquidity] = await Promise.all([
        client.readContract({ address: pool, abi: poolAbi, functionName: 'slot0', blockHash: parentHash }),
        client.readContract({ address: pool, abi: poolAbi, functionName: 'liquidity', blockHash: parentHash }),
      ]);
      return { sqrtPriceX96, tick, liquidity };
    } catch (error) {
      if (notAPool(error)) return undefined;
      throw error;
    }
  }

  function factsOf(kind: UniswapPoolKind, pool: string, blockHash: Hash): Promise<PoolFacts | undefined> {
    const key = poolKey({ kind, pool });
    const cached = factsCache.get(key);
    if (cached) {
      factsCache.delete(key);
      factsCache.set(key, cached);
      return cached;
    }
    const facts = withRetry(() => readFacts(kind, pool as Address, blockHash), retry, options.onTransientError);
    factsCache.set(key, facts);
    // A failed read is not an answer: the next block asks again.
    facts.catch(() => {
      if (factsCache.get(key) === facts) factsCache.delete(key);
    });
    if (factsCache.size > maxCachedPools) factsCache.delete(factsCache.keys().next().value!);
    return facts;
  }

  return {
    async eventsOf(bundle) {
      const raw = readPoolLogs(bundle.receipts);
      if (raw.length === 0) return [];
      const places = new Map(raw.map((entry) => [poolKey(placeOf(entry)), placeOf(entry)]));
      const facts = new Map(
        await Promise.all([...places].map(async ([key, place]) => [key, await factsOf(place.kind, place.pool, bundle.block.hash)] as const)),
      );
      const ofPools = raw.filter((entry) => facts.get(poolKey(placeOf(entry))) !== undefined);
      const prior = await Promise.all(
        poolsNeedingPriorState(ofPools).map(
          async (pool) => [pool, await withRetry(() => readPriorState(pool as Address, bundle.block.parentHash), retry, options.onTransientError)] as const,
        ),
      );
      const priorStates = new Map(prior.filter((entry): entry is readonly [string, V3PoolState] => entry[1] !== undefined));
      const block = { chainId: bundle.chainId, number: bundle.block.number, hash: bundle.block.hash.toLowerCase(), timestamp: bundle.block.timestamp };
      return resolvePoolLogs(ofPools, priorStates).map((log) => toPoolEvent(block, log, facts.get(poolKey(log))!));
    },
  };
}
