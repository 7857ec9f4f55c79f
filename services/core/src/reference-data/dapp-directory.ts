import { unary } from '../grpc/index.js';
import type { RequestContext } from '../generated/proto/common.js';
import type { Dapp, ReferenceDataClient } from '../generated/proto/reference_data.js';
import { createExpiringCache, type CacheOptions } from './expiring-cache.js';

export interface DappTable {
  /** The dapp a contract belongs to; undefined when it is not attributed. */
  dapp(chainId: string, address: string): Dapp | undefined;
}

export interface DappDirectory {
  /** One ResolveContracts call per chain for the contracts not cached yet. */
  load(contracts: readonly { chainId: string; address: string }[], context?: RequestContext): Promise<DappTable>;
}

/** Unattributed contracts are cached too (as null), so they cost no call until they expire. */
export function createDappDirectory(referenceData: ReferenceDataClient, options: Partial<CacheOptions> = {}): DappDirectory {
  const cache = createExpiringCache<Dapp | null>(options);
  const key = (chainId: string, address: string) => `${chainId}:${address}`;
  return {
    async load(contracts, context) {
      const found = new Map<string, Dapp | null>();
      const missingByChain = new Map<string, Set<string>>();
      for (const { chainId, address } of contracts) {
        const id = key(chainId, address);
        const cached = cache.get(id);
        if (cached !== undefined) found.set(id, cached);
        else missingByChain.set(chainId, (missingByChain.get(chainId) ?? new Set()).add(address));
      }
      await Promise.all(
        [...missingByChain].map(async ([chainId, addresses]) => {
          const response = await unary(
            referenceData,
            referenceData.resolveContracts,
            { context, chainId, addresses: [...addresses] },
            { name: 'ReferenceData/ResolveContracts' },
          );
          const attributed = new Map(response.contracts.map((contract) => [contract.address, contract.dapp ?? null]));
          for (const address of addresses) {
            const dapp = attributed.get(address) ?? null;
            cache.set(key(chainId, address), dapp);
            found.set(key(chainId, address), dapp);
          }
        }),
      );
      return { dapp: (chainId, address) => found.get(key(chainId, address)) ?? undefined };
    },
  };
}
