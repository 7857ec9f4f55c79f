import { remembered } from '../cache/index.js';
import { unary } from '../grpc/index.js';
import type { Network } from '../generated/proto/common.js';
import type { ReferenceDataClient } from '../generated/proto/reference_data.js';
import { listAllChains } from './all-chains.js';
import { LRUCache } from 'lru-cache';

/** Which of a batch's wallets the API serves, by chain. */
export interface WalletTracking {
  /** The `<chain>:<address>` keys of the tracked ones among `wallets`. */
  tracked(wallets: readonly { chainId: string; address: string }[]): Promise<Set<string>>;
}

export interface WalletTrackingOptions {
  /** Verdicts remembered; the least recently used go first. */
  maxAddresses?: number;
  /** Classifications asked at once, so a backfill's new addresses do not flood reference-data and the chains. */
  concurrency?: number;
}

/**
 * Reference-data's verdict on each address (ClassifyAddress, as the gateway asks before serving a
 * wallet), remembered: a plain contract, a burn address or a configured high-volume address is
 * answered 400 by every wallet endpoint, so its history rows are never read. A contract stays one;
 * an EOA that later gets code stays served, so no verdict needs asking again.
 */
export function createWalletTracking(referenceData: ReferenceDataClient, options: WalletTrackingOptions = {}): WalletTracking {
  const verdicts = new LRUCache<string, Promise<boolean>>({ max: options.maxAddresses ?? 200_000 });
  const concurrency = options.concurrency ?? 16;
  let networks: Promise<Map<string, Network>> | undefined;

  function networkOf(chainId: string): Promise<Network | undefined> {
    const known = networks ?? (networks = listAllChains(referenceData).then((chains) => new Map(chains.map((chain) => [chain.id, chain.network]))));
    return known.then(
      (map) => {
        // A chain added after the list was read: the next batch reads the list again.
        if (!map.has(chainId) && networks === known) networks = undefined;
        return map.get(chainId);
      },
      (error: unknown) => {
        if (networks === known) networks = undefined;
        throw error;
      },
    );
  }

  function verdict(network: Network, address: string): Promise<boolean> {
    return remembered(verdicts, `${network}:${address}`, () =>
      unary(
        referenceData,
        referenceData.classifyAddress,
        { context: { organizationId: '', roles: [], addons: [], network }, address },
        { name: 'ReferenceData/ClassifyAddress' },
      ).then((classification) => classification.tracked),
    );
  }

  return {
    async tracked(wallets) {
      const unique = [...new Map(wallets.map((wallet) => [`${wallet.chainId}:${wallet.address}`, wallet])).entries()];
      const tracked = new Set<string>();
      for (let start = 0; start < unique.length; start += concurrency) {
        await Promise.all(
          unique.slice(start, start + concurrency).map(async ([key, { chainId, address }]) => {
            const network = await networkOf(chainId);
            // A chain reference-data does not list is kept whole: nothing says its wallets are not served.
            if (network === undefined || (await verdict(network, address))) tracked.add(key);
          }),
        );
      }
      return tracked;
    },
  };
}
