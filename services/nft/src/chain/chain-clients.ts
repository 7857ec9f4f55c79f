import { unary } from '@wallet-api/core/grpc';
import { ChainFamily, type Chain, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { listAllChains } from '@wallet-api/core/reference-data';
import { createPublicClient, http, type PublicClient } from 'viem';

export interface ChainClients {
  /** A viem client of the chain's internal RPC URL; undefined for a chain without NFTs here (not EVM, unknown, no URL). */
  client(chainId: string): Promise<PublicClient | undefined>;
  /** The chain as reference-data lists it. */
  chain(chainId: string): Promise<Chain | undefined>;
  /** The registry's trusted NFT markets on the chain (lowercase), asked once per chain. */
  markets(chainId: string): Promise<string[]>;
}

/**
 * The chains reference-data lists (mainnets and testnets), asked once and again after a failure,
 * with one viem client per EVM chain; JSON-RPC batches let a wallet's ownerOf reads go out together.
 */
export function createChainClients(referenceData: ReferenceDataClient, options: { rpcTimeoutMs: number }): ChainClients {
  let chains: Promise<Map<string, Chain>> | undefined;
  const clients = new Map<string, PublicClient>();
  const markets = new Map<string, Promise<string[]>>();
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
    async chain(chainId) {
      return (await listChains()).get(chainId);
    },
    async client(chainId) {
      const known = clients.get(chainId);
      if (known) return known;
      const chain = (await listChains()).get(chainId);
      const url = chain?.rpc?.internalServerUrlFormat;
      if (!chain || chain.family !== ChainFamily.CHAIN_FAMILY_EVM || !url) return undefined;
      const client = createPublicClient({ transport: http(url, { timeout: options.rpcTimeoutMs, retryCount: 1, batch: { batchSize: 200 } }), cacheTime: 0 });
      clients.set(chainId, client);
      return client;
    },
    markets(chainId) {
      let known = markets.get(chainId);
      if (!known) {
        known = unary(referenceData, referenceData.listProtocols, { context: undefined, chainId }, { name: 'ReferenceData/ListProtocols' }).then(
          (response) => response.nftMarkets.map((market) => market.address.toLowerCase()),
          (error: unknown) => {
            markets.delete(chainId);
            throw error;
          },
        );
        markets.set(chainId, known);
      }
      return known;
    },
  };
}
