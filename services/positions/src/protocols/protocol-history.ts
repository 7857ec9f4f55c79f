import type { ListProtocolsResponse } from '@wallet-api/core/proto/reference_data';
import { LRUCache } from 'lru-cache';
import type { Address } from 'viem';
import type { ProtocolAdapter } from '../adapters/protocol-adapter.js';
import type { ProtocolPosition } from '../adapters/protocol-position.js';
import type { ChainReader } from '../chain/chain-reader.js';
import type { ChainDirectory } from '../chain/chain-directory.js';
import { chainProtocols, type ProtocolDirectory } from './protocol-directory.js';

export interface BlockPositions {
  blockNumber: bigint;
  positions: ProtocolPosition[];
}

export interface ProtocolHistory {
  /**
   * The wallet's protocol positions after each distinct block, ascending; none at any block of a
   * chain without protocol positions (not EVM, no RPC endpoint). Fails when the node cannot
   * answer for one of the blocks.
   */
  positionsAt(chainId: string, wallet: Address, blockNumbers: readonly bigint[]): Promise<BlockPositions[]>;
}

export interface ProtocolHistoryOptions {
  chains: ChainDirectory;
  protocols: ProtocolDirectory;
  /** Blocks read at once for one request. */
  concurrency: number;
}

/** Every contract whose existence decides whether a deployment (or one of its pairs) can be read. */
function contractsOf(listed: ListProtocolsResponse): string[] {
  return [
    ...listed.uniswapV2.flatMap((deployment) => [deployment.factory, ...deployment.pairs]),
    ...listed.uniswapV3.flatMap((deployment) => [deployment.factory, deployment.positionManager]),
    ...[...listed.vaults, ...listed.staking, ...listed.lending].map((contract) => contract.address),
  ].map((address) => address.toLowerCase());
}

/** The registry's deployments as they stood at a block: only contracts created by then. */
function listedAt(listed: ListProtocolsResponse, exists: (address: string) => boolean): ListProtocolsResponse {
  return {
    ...listed,
    uniswapV2: listed.uniswapV2
      .filter((deployment) => exists(deployment.factory))
      .map((deployment) => ({ ...deployment, pairs: deployment.pairs.filter(exists) })),
    uniswapV3: listed.uniswapV3.filter((deployment) => exists(deployment.factory) && exists(deployment.positionManager)),
    vaults: listed.vaults.filter((contract) => exists(contract.address)),
    staking: listed.staking.filter((contract) => exists(contract.address)),
    lending: listed.lending.filter((contract) => exists(contract.address)),
  };
}

/**
 * Protocol positions in the past, read by the same adapters as the current ones at each block
 * (the node must keep that block's state: an archive node for old blocks). A read at a block
 * before a registry contract existed leaves the contract out, as a call to it would fail, and the
 * wallet can have had nothing in it. Pairs outside the registry, which the current positions find
 * among the wallet's tokens, are not looked for.
 */
export function createProtocolHistory(options: ProtocolHistoryOptions): ProtocolHistory {
  const { chains, protocols } = options;
  // Adapters per chain and set of existing contracts: a chart's blocks mostly share a few sets.
  const adapterSets = new LRUCache<string, ProtocolAdapter[]>({ max: 1_000 });

  async function creationBlocks(reader: ChainReader, listed: ListProtocolsResponse): Promise<Map<string, bigint | undefined>> {
    const contracts = [...new Set(contractsOf(listed))];
    const created = await Promise.all(contracts.map((address) => reader.createdAt(address as Address)));
    return new Map(contracts.map((address, index) => [address, created[index]]));
  }

  return {
    async positionsAt(chainId, wallet, blockNumbers) {
      const [reader, { listed }] = await Promise.all([chains.reader(chainId), protocols.protocols(chainId)]);
      const blocks = [...new Set(blockNumbers)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (!reader) return blocks.map((blockNumber) => ({ blockNumber, positions: [] }));
      const created = await creationBlocks(reader, listed);
      const adaptersAt = (blockNumber: bigint): ProtocolAdapter[] => {
        const existing = [...created].filter(([, block]) => block !== undefined && block <= blockNumber).map(([address]) => address);
        const key = `${chainId}|${existing.join(',')}`;
        let adapters = adapterSets.get(key);
        if (!adapters) {
          const exists = new Set(existing);
          adapters = chainProtocols(listedAt(listed, (address) => exists.has(address.toLowerCase()))).adapters;
          adapterSets.set(key, adapters);
        }
        return adapters;
      };
      const results: BlockPositions[] = new Array(blocks.length);
      let next = 0;
      const worker = async () => {
        while (next < blocks.length) {
          const index = next++;
          const blockNumber = blocks[index]!;
          const read = await Promise.all(adaptersAt(blockNumber).map((adapter) => adapter.read({ reader, wallet, blockNumber, heldTokens: [] })));
          results[index] = { blockNumber, positions: read.flat() };
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency, blocks.length) }, worker));
      return results;
    },
  };
}
