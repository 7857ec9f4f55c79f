import { epochScoped, remembered } from '@wallet-api/core/cache';
import { unavailable } from '@wallet-api/core/grpc';
import { LRUCache } from 'lru-cache';
import { decodeAbiParameters, encodeFunctionData, parseAbi, type Address, type Hex, type PublicClient } from 'viem';
import type { ChainProtocolsConfig } from '../registry/registry-config.js';
import { answersNothing, isRevert, rpcFailure } from '../tokens/rpc-errors.js';
import type { ClockBlock } from './block-clock.js';

/** What a token's price is made of: its own markets, a V2 pair's reserves, or a vault's asset. */
export type TokenComposition = { kind: 'market' } | { kind: 'lp'; token0: string; token1: string } | { kind: 'vault'; asset: string };

export interface LpReserves {
  reserve0: bigint;
  reserve1: bigint;
  totalSupply: bigint;
}

/**
 * Reads of LP tokens and vault shares on one chain, at a block (the head when absent). Reads at a
 * stable block never change, and reads at a recent block change only in a reorg, so they are
 * remembered, the recent ones until the block's rollback epoch is replaced: a page of
 * transactions asks the same reserves again after every price move.
 */
export interface DerivedTokens {
  composition(address: string): Promise<TokenComposition>;
  lpReserves(pair: string, block?: ClockBlock): Promise<LpReserves>;
  /** Assets (base units) that `shares` (base units) of the vault redeem for. */
  vaultAssets(vault: string, shares: bigint, block?: ClockBlock): Promise<bigint | undefined>;
}

const abi = parseAbi([
  'function factory() view returns (address)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getPair(address, address) view returns (address)',
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function totalSupply() view returns (uint256)',
  'function asset() view returns (address)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
]);

const factoryCall = encodeFunctionData({ abi, functionName: 'factory' });

/**
 * A token is an LP token when it is a pair that a registry V2 factory confirms (getPair answers
 * it for its own tokens), and a vault share when the registry lists it as a vault. What a token is
 * never changes, so the answer is remembered.
 */
export function createDerivedTokens(chainId: string, protocols: ChainProtocolsConfig, client: Pick<PublicClient, 'readContract' | 'request'>): DerivedTokens {
  const v2Factories = new Set(protocols.uniswap_v2.map((entry) => entry.factory));
  const vaults = new Set(protocols.vaults);
  const known = new Map<string, Promise<TokenComposition>>();
  const atStableBlocks = new LRUCache<string, Promise<LpReserves | bigint | undefined>>({ max: 100_000 });
  const atRecentBlocks = epochScoped(() => new LRUCache<string, Promise<LpReserves | bigint | undefined>>({ max: 10_000 }));

  /**
   * `load` once per key at a stable block, or at a recent one while its epoch holds (a failed read
   * is not kept); every time at the head.
   */
  function atBlock<T extends LpReserves | bigint | undefined>(key: string, block: ClockBlock | undefined, load: () => Promise<T>): Promise<T> {
    if (block?.stable) return remembered(atStableBlocks, key, load) as Promise<T>;
    if (block?.epoch === undefined) return load();
    return remembered(atRecentBlocks(block.epoch), key, load) as Promise<T>;
  }

  async function read<T>(what: () => Promise<T>): Promise<T> {
    try {
      return await what();
    } catch (error) {
      throw unavailable(`chain ${chainId} did not answer (${rpcFailure(error)}); retry later`);
    }
  }

  /**
   * `read` at a past block, where a contract that answers nothing (not deployed yet, or not yet
   * able to answer) has no value then: undefined, as a token without a price, instead of failing a
   * whole chart of which one point falls before the contract existed.
   */
  async function readThen<T>(block: ClockBlock | undefined, what: () => Promise<T>): Promise<T | undefined> {
    if (block === undefined) return read(what);
    try {
      return await what();
    } catch (error) {
      if (answersNothing(error)) return undefined;
      throw unavailable(`chain ${chainId} did not answer (${rpcFailure(error)}); retry later`);
    }
  }

  /**
   * The factory a token names, or undefined when it names none (it reverts or answers nothing, as
   * every plain token does). A raw eth_call: viem's readContract dresses each revert in a
   * pretty-printed error, and a wallet's first request probes every token it holds.
   */
  async function claimedFactory(address: Address): Promise<string | undefined> {
    let answer: Hex;
    try {
      answer = await client.request({ method: 'eth_call', params: [{ to: address, data: factoryCall }, 'latest'] });
    } catch (error) {
      if (isRevert(error)) return undefined;
      throw unavailable(`chain ${chainId} did not answer (${rpcFailure(error)}); retry later`);
    }
    if (answer.length < 66) return undefined;
    return decodeAbiParameters([{ type: 'address' }], answer.slice(0, 66) as Hex)[0].toLowerCase();
  }

  async function classify(address: Address): Promise<TokenComposition> {
    if (vaults.has(address)) {
      const asset = await read(() => client.readContract({ address, abi, functionName: 'asset' }));
      return { kind: 'vault', asset: asset.toLowerCase() };
    }
    if (v2Factories.size === 0) return { kind: 'market' };
    const factory = await claimedFactory(address);
    if (!factory || !v2Factories.has(factory)) return { kind: 'market' };
    const [token0, token1] = await Promise.all([
      read(() => client.readContract({ address, abi, functionName: 'token0' })),
      read(() => client.readContract({ address, abi, functionName: 'token1' })),
    ]);
    const pair = await read(() => client.readContract({ address: factory as Address, abi, functionName: 'getPair', args: [token0, token1] }));
    return pair.toLowerCase() === address ? { kind: 'lp', token0: token0.toLowerCase(), token1: token1.toLowerCase() } : { kind: 'market' };
  }

  return {
    composition(address) {
      return remembered(known, address, () => classify(address as Address));
    },
    lpReserves(pair, block) {
      return atBlock(`lp:${pair}:${block?.number}`, block, async () => {
        const at = { address: pair as Address, ...(block === undefined ? {} : { blockNumber: block.number }) };
        const answer = await readThen(block, () =>
          Promise.all([client.readContract({ ...at, abi, functionName: 'getReserves' }), client.readContract({ ...at, abi, functionName: 'totalSupply' })]),
        );
        // A pair that did not exist yet held nothing: no supply, so no price (see the oracle).
        if (answer === undefined) return { reserve0: 0n, reserve1: 0n, totalSupply: 0n };
        const [[reserve0, reserve1], totalSupply] = answer;
        return { reserve0, reserve1, totalSupply };
      });
    },
    vaultAssets(vault, shares, block) {
      return atBlock(`vault:${vault}:${shares}:${block?.number}`, block, () => {
        const at = { address: vault as Address, ...(block === undefined ? {} : { blockNumber: block.number }) };
        return readThen(block, () => client.readContract({ ...at, abi, functionName: 'convertToAssets', args: [shares] }));
      });
    },
  };
}
