import type { Network } from '@wallet-api/core/proto/common';
import type { TokenRef } from '@wallet-api/core/proto/reference_data';
import type { Logger } from '@wallet-api/core/logger';
import type { FungibleCatalog } from './fungible-catalog.js';
import type { IndexedFungible } from './fungible-search-index.js';

/** The three numbers the list sorts by, in USD (any other currency is a positive multiple: same order). */
export interface MarketKeys {
  marketCap: number | undefined;
  price: number | undefined;
  volume1d: number | undefined;
}

export interface RankingSnapshot {
  /** Changes with every refresh; carried in cursors so a walk keeps one order. */
  generation: number;
  keys(fungibleId: string): MarketKeys | undefined;
}

export interface MarketRanking {
  /** The snapshot of `network` with `generation`, if still kept; otherwise the newest (built on first use). */
  snapshot(network: Network, fungibles: readonly IndexedFungible[], generation?: number): Promise<RankingSnapshot>;
}

export interface MarketRankingOptions {
  catalog: Pick<FungibleCatalog, 'describe'>;
  logger: Logger;
  /** Snapshots are rebuilt in the background once older than this. */
  refreshMs?: number;
  /** Fungibles ranked at most per network (verified first); the rest sort as having no market data. */
  maxRanked?: number;
  /** Fungibles described per GetFungibles-sized batch. */
  batchSize?: number;
  now?: () => number;
}

/**
 * Market data for sorting, kept per network: three numbers per fungible, computed in batches in
 * the background at most every `refreshMs`, never per request. The previous snapshot is kept too,
 * so a cursor issued under it walks on in the same order after a refresh.
 */
export function createMarketRanking(options: MarketRankingOptions): MarketRanking {
  const refreshMs = options.refreshMs ?? 60_000;
  const maxRanked = options.maxRanked ?? 20_000;
  const batchSize = options.batchSize ?? 200;
  const now = options.now ?? Date.now;
  let generations = 0;
  const kept = new Map<Network, { current: RankingSnapshot & { builtAt: number }; previous?: RankingSnapshot }>();
  const building = new Map<Network, Promise<RankingSnapshot>>();

  async function compute(network: Network, fungibles: readonly IndexedFungible[]): Promise<RankingSnapshot> {
    const ranked = [...fungibles].sort((a, b) => Number(b.verified) - Number(a.verified)).slice(0, maxRanked);
    const keys = new Map<string, MarketKeys>();
    const context = { network, addons: [] as string[], currency: 'usd' as const, withoutChanges: true };
    for (let start = 0; start < ranked.length; start += batchSize) {
      const batch = ranked.slice(start, start + batchSize);
      const fungibleIds = batch.filter((fungible) => fungible.verified).map((fungible) => fungible.id);
      const implementations: TokenRef[] = batch.filter((fungible) => !fungible.verified).flatMap((fungible) => fungible.implementations);
      const described = await options.catalog.describe({ ...context, fungibleIds, implementations });
      for (const { fungible } of described) {
        const market = fungible.marketData;
        keys.set(fungible.id, { marketCap: market?.marketCap, price: market?.price, volume1d: market?.volume1d });
      }
    }
    return { generation: ++generations, keys: (id) => keys.get(id) };
  }

  function rebuild(network: Network, fungibles: readonly IndexedFungible[]): Promise<RankingSnapshot> {
    let pending = building.get(network);
    if (!pending) {
      pending = compute(network, fungibles)
        .then((snapshot) => {
          const earlier = kept.get(network);
          kept.set(network, { current: { ...snapshot, builtAt: now() }, ...(earlier ? { previous: earlier.current } : {}) });
          return snapshot;
        })
        .finally(() => building.delete(network));
      building.set(network, pending);
    }
    return pending;
  }

  return {
    async snapshot(network, fungibles, generation) {
      const entry = kept.get(network);
      if (!entry) return rebuild(network, fungibles);
      if (entry.current.builtAt + refreshMs <= now()) {
        rebuild(network, fungibles).catch((error: unknown) => options.logger.warn({ err: error }, 'fungibles: refreshing the market ranking failed'));
      }
      if (generation !== undefined && entry.previous?.generation === generation) return entry.previous;
      return entry.current;
    },
  };
}
