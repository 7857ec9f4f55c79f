import { invalidArgument } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { FungibleSort, type ImplementationMarket, type ListedFungible } from '@wallet-api/core/proto/fungibles';
import type { TokenRef } from '@wallet-api/core/proto/reference_data';
import type { ChainConfig } from '../chains/chain-config.js';
import type { Currency } from '../prices/currencies.js';
import type { DeploymentDates } from './deployment-dates.js';
import type { FungibleCatalog } from './fungible-catalog.js';
import { canonicalAddress, type MatchTier, type IndexedFungible } from './fungible-search-index.js';
import type { FungibleSources } from './fungible-sources.js';
import type { MarketKeys, MarketRanking } from './market-ranking.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import { derivedFungibleId } from '../tokens/token-flags.js';

export interface ListQuery {
  network: Network;
  currency: Currency;
  addons: readonly string[];
  searchQuery: string;
  implementationChainId: string;
  implementationAddress: string;
  fungibleImplementations: readonly TokenRef[];
  fungibleIds: readonly string[];
  assetClasses: readonly string[];
  hasAssetClass: boolean;
  sort: FungibleSort;
  pageSize: number;
  pageAfter: string;
}

export interface FungibleList {
  list(query: ListQuery): Promise<{ fungibles: ListedFungible[]; nextCursor: string }>;
  /** One fungible by id or by implementation (address '' for the native asset); undefined when none. */
  get(request: {
    network: Network;
    currency: Currency;
    addons: readonly string[];
    fungibleId?: string;
    implementation?: TokenRef;
  }): Promise<ListedFungible | undefined>;
}

export interface FungibleListOptions {
  chains: readonly ChainConfig[];
  sources: FungibleSources;
  catalog: Pick<FungibleCatalog, 'describe'>;
  ranking: MarketRanking;
  deployments: DeploymentDates;
}

const sortKey: Record<FungibleSort, { key: keyof MarketKeys; direction: 1 | -1 }> = {
  [FungibleSort.FUNGIBLE_SORT_MARKET_CAP_DESC]: { key: 'marketCap', direction: -1 },
  [FungibleSort.FUNGIBLE_SORT_MARKET_CAP_ASC]: { key: 'marketCap', direction: 1 },
  [FungibleSort.FUNGIBLE_SORT_PRICE_DESC]: { key: 'price', direction: -1 },
  [FungibleSort.FUNGIBLE_SORT_PRICE_ASC]: { key: 'price', direction: 1 },
  [FungibleSort.FUNGIBLE_SORT_VOLUME_1D_DESC]: { key: 'volume1d', direction: -1 },
  [FungibleSort.FUNGIBLE_SORT_VOLUME_1D_ASC]: { key: 'volume1d', direction: 1 },
};

/**
 * Spec 4.11 fungibles list: every given filter narrows the set (they combine as AND), a search
 * orders by match tier then verified before unverified, then the requested market sort (fungibles
 * without the value last), then id; pages are offsets into that order under one ranking snapshot.
 */
export function createFungibleList(options: FungibleListOptions): FungibleList {
  const chains = new Map(options.chains.map((chain) => [chain.id, chain]));
  const networkName = (network: Network) => (network === Network.NETWORK_TESTNET ? 'testnet' : 'mainnet');
  const addressOn = (chainId: string, address: string) => (chains.get(chainId)?.family === 'solana' ? address.trim() : address.trim().toLowerCase());

  /** The fungibles of `network` only, each with its implementations there. */
  function onNetwork(fungibles: readonly IndexedFungible[], network: Network): IndexedFungible[] {
    const name = networkName(network);
    return fungibles.flatMap((fungible) => {
      const implementations = fungible.implementations.filter((ref) => chains.get(ref.chainId)?.network === name);
      return implementations.length === 0 ? [] : [implementations.length === fungible.implementations.length ? fungible : { ...fungible, implementations }];
    });
  }

  /** Adds per-implementation volume and deployment date to the catalog's fungibles, in the order of `wanted`. */
  async function describe(
    wanted: readonly IndexedFungible[],
    request: { network: Network; currency: Currency; addons: readonly string[] },
  ): Promise<ListedFungible[]> {
    if (wanted.length === 0) return [];
    const described = await options.catalog.describe({
      network: request.network,
      currency: request.currency,
      addons: request.addons,
      fungibleIds: wanted.filter((fungible) => fungible.verified).map((fungible) => fungible.id),
      implementations: wanted.filter((fungible) => !fungible.verified).flatMap((fungible) => fungible.implementations),
    });
    const byId = new Map(described.map((entry) => [entry.fungible.id, entry]));
    return Promise.all(
      wanted.flatMap((fungible) => {
        const entry = byId.get(fungible.id);
        if (!entry) return [];
        return [
          (async (): Promise<ListedFungible> => ({
            fungible: entry.fungible,
            implementations: await Promise.all(
              entry.fungible.implementations.map(async (implementation): Promise<ImplementationMarket> => {
                const volume = entry.implementationVolumes.get(`${implementation.chainId}:${implementation.address}`);
                // A chain that does not answer leaves the date out of this answer rather than failing the page; it is searched again next time.
                const deployment =
                  implementation.address === ''
                    ? undefined
                    : await options.deployments.deployment(implementation.chainId, implementation.address).catch(() => undefined);
                return {
                  chainId: implementation.chainId,
                  address: implementation.address,
                  ...(volume === undefined ? {} : { volume1d: volume }),
                  deploymentDate: deployment?.date ?? '',
                };
              }),
            ),
          }))(),
        ];
      }),
    );
  }

  return {
    async list(query) {
      const cursor = query.pageAfter === '' ? undefined : decodeCursor(query.pageAfter);
      if (query.implementationChainId !== '' && chains.get(query.implementationChainId)?.network !== networkName(query.network)) {
        throw invalidArgument(`filter[implementation_chain_id]: chain ${query.implementationChainId} is not supported`);
      }
      const index = await options.sources.index();
      const all = onNetwork(index.fungibles, query.network);
      const ranking = await options.ranking.snapshot(query.network, all, cursor?.generation);
      let candidates: IndexedFungible[] = all;
      const keep = (ids: Iterable<string>) => {
        const wanted = new Set(ids);
        candidates = candidates.filter((fungible) => wanted.has(fungible.id));
      };
      if (query.fungibleIds.length > 0) keep(query.fungibleIds);
      if (query.fungibleImplementations.length > 0) {
        keep(query.fungibleImplementations.flatMap((ref) => index.byImplementation(ref.chainId, addressOn(ref.chainId, ref.address))?.id ?? []));
      }
      if (query.implementationAddress !== '') keep(index.byAddress(canonicalAddress(query.implementationAddress.trim())).map((fungible) => fungible.id));
      if (query.implementationChainId !== '')
        candidates = candidates.filter((fungible) => fungible.implementations.some((ref) => ref.chainId === query.implementationChainId));
      if (query.hasAssetClass) candidates = candidates.filter((fungible) => fungible.assetClass !== undefined);
      if (query.assetClasses.length > 0)
        candidates = candidates.filter((fungible) => fungible.assetClass !== undefined && query.assetClasses.includes(fungible.assetClass));
      const tiers = new Map<string, MatchTier>();
      if (query.searchQuery !== '') {
        for (const match of index.search(query.searchQuery)) tiers.set(match.fungible.id, match.tier);
        candidates = candidates.filter((fungible) => tiers.has(fungible.id));
      }

      const { key, direction } = sortKey[query.sort];
      const value = (fungible: IndexedFungible) => ranking.keys(fungible.id)?.[key];
      const ordered = [...candidates].sort((a, b) => {
        if (tiers.size > 0) {
          const byTier = tiers.get(a.id)! - tiers.get(b.id)!;
          if (byTier !== 0) return byTier;
          if (a.verified !== b.verified) return a.verified ? -1 : 1;
        }
        const [x, y] = [value(a), value(b)];
        if (x !== y) {
          if (x === undefined) return 1;
          if (y === undefined) return -1;
          return direction * (x - y);
        }
        return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      });
      const offset = cursor?.offset ?? 0;
      const page = ordered.slice(offset, offset + query.pageSize);
      const next = offset + query.pageSize < ordered.length ? encodeCursor({ offset: offset + query.pageSize, generation: ranking.generation }) : '';
      return { fungibles: await describe(page, query), nextCursor: next };
    },

    async get(request) {
      if (request.implementation) {
        const ref = request.implementation;
        const chain = chains.get(ref.chainId);
        if (!chain || chain.network !== networkName(request.network)) throw invalidArgument(`implementation: chain ${ref.chainId} is not supported`);
        const index = await options.sources.index();
        const address = addressOn(ref.chainId, ref.address);
        // A token not in the index yet (first seen now) is described all the same: the catalog reads it from its chain.
        const wanted = index.byImplementation(ref.chainId, address) ?? {
          id: derivedFungibleId(ref.chainId, address),
          name: '',
          symbol: '',
          verified: false,
          native: false,
          implementations: [{ chainId: ref.chainId, address }],
          assetClass: undefined,
        };
        const [found] = await describe(onNetwork([wanted], request.network), request);
        return found;
      }
      const index = await options.sources.index();
      const fungible = index.byId(request.fungibleId ?? '');
      if (!fungible) return undefined;
      const [found] = await describe(onNetwork([fungible], request.network), request);
      return found;
    },
  };
}
