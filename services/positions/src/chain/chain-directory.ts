import { ChainFamily, type Chain, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { listAllChains } from '@wallet-api/core/reference-data';
import { createSolanaRpc } from '@solana/kit';
import { createPublicClient, http } from 'viem';
import { createChainReader, type ChainReader } from './chain-reader.js';
import { createSolanaBalanceReader, type SolanaBalanceReader } from './solana-balance-reader.js';

export interface ChainDirectory {
  /** A reader of the chain's RPC endpoint; undefined for a chain without protocol positions (not EVM, or unknown). */
  reader(chainId: string): Promise<ChainReader | undefined>;
  /** Balance reads of a Solana chain; undefined for any other chain. */
  solanaReader(chainId: string): Promise<SolanaBalanceReader | undefined>;
}

/**
 * The chains reference-data lists (mainnets and testnets), asked once and again after a failure,
 * with one viem client per EVM chain and one @solana/kit client per Solana chain on its internal RPC URL.
 */
export function createChainDirectory(referenceData: ReferenceDataClient, options: { rpcTimeoutMs: number }): ChainDirectory {
  let chains: Promise<Map<string, Chain>> | undefined;
  const readers = new Map<string, ChainReader>();
  const solanaReaders = new Map<string, SolanaBalanceReader>();
  const listChains = () => {
    chains ??= listAllChains(referenceData).then(
      (list) => new Map(list.map((chain) => [chain.id, chain])),
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
      const reader = createChainReader(
        createPublicClient({ transport: http(url, { timeout: options.rpcTimeoutMs, retryCount: 1, batch: { batchSize: 500 } }), cacheTime: 0 }),
      );
      readers.set(chainId, reader);
      return reader;
    },
    async solanaReader(chainId) {
      const known = solanaReaders.get(chainId);
      if (known) return known;
      const chain = (await listChains()).get(chainId);
      const url = chain?.rpc?.internalServerUrlFormat;
      if (!chain || chain.family !== ChainFamily.CHAIN_FAMILY_SOLANA || !url) return undefined;
      const reader = createSolanaBalanceReader(createSolanaRpc(url));
      solanaReaders.set(chainId, reader);
      return reader;
    },
  };
}
