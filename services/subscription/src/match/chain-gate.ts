import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { Network as ProtoNetwork } from '@wallet-api/core/proto/common';
import { listAllChains } from '@wallet-api/core/reference-data';
import type { Network } from './subscription-entry.js';

/** The chains a subscription with an empty chain list watches: both supports_transactions and supports_positions (spec 4.10). */
export interface ChainGate {
  /** Loads the chain list when it is missing or older than the refresh interval. */
  ready(): Promise<void>;
  eligible(network: Network): ReadonlySet<string>;
}

export function createChainGate(referenceData: ReferenceDataClient, refreshMs = 5 * 60_000): ChainGate {
  let loadedAt = 0;
  let chains: Record<Network, Set<string>> = { mainnet: new Set(), testnet: new Set() };
  return {
    async ready() {
      if (loadedAt > 0 && Date.now() - loadedAt < refreshMs) return;
      const next: Record<Network, Set<string>> = { mainnet: new Set(), testnet: new Set() };
      for (const chain of await listAllChains(referenceData)) {
        if (!chain.flags?.supportsTransactions || !chain.flags.supportsPositions) continue;
        next[chain.network === ProtoNetwork.NETWORK_TESTNET ? 'testnet' : 'mainnet'].add(chain.id);
      }
      chains = next;
      loadedAt = Date.now();
    },
    eligible: (network) => chains[network],
  };
}
