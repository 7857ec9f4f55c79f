import { unary } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { ChainFamily, type Chain, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createPublicClient, http } from 'viem';
import { createChainReader, type ChainReader } from './chain-reader.js';

export interface ChainDirectory {
  /** A reader of the chain's RPC endpoint; undefined for a chain without protocol positions (not EVM, or unknown). */
  reader(chainId: string): Promise<ChainReader | undefined>;
}

/**
 * The chains reference-data lists (mainnets and testnets), asked once and again after a failure,
 * with one viem client per EVM chain on its internal RPC URL.
 */
export function createChainDirectory(referenceData: ReferenceDataClient, options: { rpcTimeoutMs: number }): ChainDirectory {
  let chains: Promise<Map<string, Chain>> | undefined;
  const readers = new Map<string, ChainReader>();
  const listChains = () => {
    chains ??= Promise.all(
      [Network.NETWORK_MAINNET, Network.NETWORK_TESTNET].map((network) =>
        unary(referenceData, referenceData.listChains, { context: { organizationId: '', roles: [], addons: [], network } }, { name: 'ReferenceData/ListChains' }),
      ),
    ).then(
      (lists) => new Map(lists.flatMap((list) => list.chains).map((chain) => [chain.id, chain])),
      (error: unknown) => {
        chains = undefined;
        throw error;
      },
    );
    return chains;
  };
  return {
    async reader(chainId) {
      const known = readers.get(chainId);
      if (known) return known;
      const chain = (await listChains()).get(chainId);
      const url = chain?.rpc?.internalServerUrlFormat;
      if (!chain || chain.family !== ChainFamily.CHAIN_FAMILY_EVM || !url) return undefined;
      const reader = createChainReader(createPublicClient({ transport: http(url, { timeout: options.rpcTimeoutMs, retryCount: 1, batch: { batchSize: 500 } }), cacheTime: 0 }));
      readers.set(chainId, reader);
      return reader;
    },
  };
}
