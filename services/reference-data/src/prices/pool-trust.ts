import { parseAbi, zeroAddress, type Address, type PublicClient } from 'viem';
import type { ChainProtocolsConfig } from '../registry/registry-config.js';
import { answersNothing } from '../tokens/rpc-errors.js';
import type { ChainPoolEvent } from './chain-pool-event.js';

const factoryAbi = parseAbi([
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
]);

/**
 * Whether a pool may set prices: its factory is one of the chain's registry factories of its
 * kind, and that factory answers the pool's own address for the pool's tokens (and fee), so a
 * contract that merely claims a registry factory, or a pool of any other factory, is not.
 */
export interface PoolTrust {
  isTrusted(event: ChainPoolEvent): Promise<boolean>;
}

export function createPoolTrust(protocols: ChainProtocolsConfig, client: Pick<PublicClient, 'readContract'>): PoolTrust {
  const v2Factories = new Set(protocols.uniswap_v2.map((entry) => entry.factory));
  const v3Factories = new Set(protocols.uniswap_v3.map((entry) => entry.factory));
  // Settled answers only: a factory's mapping never changes once a pool is registered in it.
  const settled = new Map<string, boolean>();

  async function confirm(event: ChainPoolEvent): Promise<boolean | undefined> {
    const factories = event.kind === 'v2' ? v2Factories : v3Factories;
    if (!factories.has(event.factory)) return false;
    const at = { address: event.factory as Address, blockNumber: event.blockNumber };
    const tokens = [event.token0 as Address, event.token1 as Address] as const;
    let registered: string;
    try {
      registered = (
        event.kind === 'v2'
          ? await client.readContract({ ...at, abi: factoryAbi, functionName: 'getPair', args: tokens })
          : await client.readContract({ ...at, abi: factoryAbi, functionName: 'getPool', args: [...tokens, event.fee] })
      ).toLowerCase();
    } catch (error) {
      if (answersNothing(error)) return false;
      throw error;
    }
    // No pool for these tokens at this height (yet, or on this branch): ask again next time.
    if (registered === zeroAddress) return undefined;
    return registered === event.pool;
  }

  return {
    async isTrusted(event) {
      const key = `${event.kind}:${event.pool}:${event.factory}:${event.token0}:${event.token1}:${event.fee}`;
      const known = settled.get(key);
      if (known !== undefined) return known;
      const answer = await confirm(event);
      if (answer !== undefined) settled.set(key, answer);
      return answer ?? false;
    },
  };
}
