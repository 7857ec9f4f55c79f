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
import { decodePoolLogs, toPoolEvent, type PoolFacts, type UniswapPoolKind } from '../decode/pool-events.js';
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
]);

/** The contract answered, but not as a pool: it reverted, returned nothing or too little. */
function notAPool(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError || cause instanceof AbiDecodingDataSizeTooSmallError) !== null
  );
}

/**
 * Pool events with each pool's tokens, factory and fee, which no pool log carries. Those never
 * change, so they are read once per pool (at the block of the log, so the pool surely exists there;
 * by hash, so a block reorged away meanwhile fails the read instead of answering for another
 * branch) and remembered; a block without pool logs costs no call.
 */
export function createPoolEventSource(options: PoolEventSourceOptions): PoolEventSource {
  const { client } = options;
  const retry = options.retry ?? defaultRetryPolicy;
  const maxCachedPools = options.maxCachedPools ?? 100_000;
  const known = new Map<string, Promise<PoolFacts | undefined>>();

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

  function factsOf(kind: UniswapPoolKind, pool: string, blockHash: Hash): Promise<PoolFacts | undefined> {
    const key = `${kind}:${pool}`;
    const cached = known.get(key);
    if (cached) {
      known.delete(key);
      known.set(key, cached);
      return cached;
    }
    const facts = withRetry(() => readFacts(kind, pool as Address, blockHash), retry, options.onTransientError);
    known.set(key, facts);
    // A failed read is not an answer: the next block asks again.
    facts.catch(() => {
      if (known.get(key) === facts) known.delete(key);
    });
    if (known.size > maxCachedPools) known.delete(known.keys().next().value!);
    return facts;
  }

  return {
    async eventsOf(bundle) {
      const logs = decodePoolLogs(bundle.receipts);
      if (logs.length === 0) return [];
      const block = { chainId: bundle.chainId, number: bundle.block.number, hash: bundle.block.hash.toLowerCase(), timestamp: bundle.block.timestamp };
      const facts = await Promise.all(logs.map((log) => factsOf(log.kind, log.pool, bundle.block.hash)));
      return logs.flatMap((log, index) => {
        const pool = facts[index];
        return pool ? [toPoolEvent(block, log, pool)] : [];
      });
    },
  };
}
