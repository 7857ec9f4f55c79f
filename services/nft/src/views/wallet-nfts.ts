import { currentVersion, sharedVersion, unpricedVersion, type ChangeVersions } from '@wallet-api/core/cache';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { NftPositionsSort, type NftCollection, type NftPosition, type WalletNftCollection } from '@wallet-api/core/proto/nft';
import { LRUCache } from 'lru-cache';
import type { OwnershipStore } from '../store/ownership-store.js';
import type { NftCatalog } from './nft-catalog.js';
import type { MarketFacts } from './nft-resources.js';
import { compareSortable, type Sortable } from './page-cursor.js';
import { arrangeHoldings, type HeldNft, type WalletHoldings } from './wallet-holdings.js';

/** A position in one order, with the key its cursor names. */
export type SortedPosition = Sortable & { held: HeldNft; collectionId: string };

/** Everything a wallet's NFT answers are cut from, valued in one currency. */
export interface WalletNftView {
  collections: Map<string, NftCollection>;
  walletCollections: Map<string, WalletNftCollection>;
  /** Chain id -> floor value of what is held there. */
  byChain: Map<string, number>;
  /** The positions in a sort's order, arranged once per view and sort. */
  sorted(sort: NftPositionsSort): SortedPosition[];
  /** The messages of a page's positions, their tokens' last sales read now. */
  render(positions: readonly SortedPosition[]): Promise<NftPosition[]>;
}

export interface WalletNfts {
  view(context: RequestContext, wallet: string, chainIds: readonly string[], currency: string): Promise<WalletNftView>;
}

interface Versioned<T> {
  version: string;
  value: T;
}

/**
 * A wallet's NFT view, kept per wallet and chains: its holdings, arranged and summed, under the
 * wallet's `nfts` token (blind to price moves), the valued view under the price token as well. A
 * price move (every block of a live chain) then values one floor per collection, not each NFT.
 */
export function createWalletNfts(options: { ownership: OwnershipStore; catalog: NftCatalog; versions: ChangeVersions; maxWallets: number }): WalletNfts {
  const { ownership, catalog, versions } = options;
  const holdingsCache = new LRUCache<string, Versioned<WalletHoldings>>({ max: options.maxWallets });
  const viewCache = new LRUCache<string, Versioned<WalletNftView>>({ max: options.maxWallets });

  async function holdingsOf(key: string, version: string, wallet: string, chainIds: readonly string[], context: RequestContext): Promise<WalletHoldings> {
    const cached = holdingsCache.get(key);
    if (cached?.version === version) return cached.value;
    const holdings = await ownership.holdings(wallet, chainIds);
    const value = arrangeHoldings(holdings, await catalog.entries(holdings, context));
    holdingsCache.set(key, { version, value });
    return value;
  }

  function value(held: WalletHoldings, facts: MarketFacts): WalletNftView {
    const collections = new Map<string, NftCollection>();
    const ids = new Map<string, string>();
    const floors = new Map<string, number | undefined>();
    const walletCollections = new Map<string, WalletNftCollection>();
    const byChain = new Map<string, number>();
    for (const [key, holding] of held.collections) {
      const collection = catalog.collection(holding.row, held.entries, facts);
      const total = collection.floorPrice === undefined ? 0 : collection.floorPrice * Number(holding.count);
      collections.set(collection.id, collection);
      ids.set(key, collection.id);
      floors.set(key, collection.floorPrice);
      walletCollections.set(collection.id, {
        collectionId: collection.id,
        chainIds: holding.chainIds,
        minChangedAt: holding.minChangedAt.toString(),
        maxChangedAt: holding.maxChangedAt.toString(),
        nftsCount: holding.count.toString(),
        totalFloorPrice: total,
      });
      byChain.set(holding.row.chainId, (byChain.get(holding.row.chainId) ?? 0) + total);
    }
    const position = (nft: HeldNft, key: number | null): SortedPosition => ({ key, id: nft.id, held: nft, collectionId: ids.get(nft.collectionKey)! });
    const orders = new Map<NftPositionsSort, SortedPosition[]>();
    const arrange = (sort: NftPositionsSort): SortedPosition[] => {
      switch (sort) {
        case NftPositionsSort.NFT_POSITIONS_SORT_CREATED_AT_DESC:
          return held.newestFirst.map((nft) => position(nft, nft.changedAt));
        case NftPositionsSort.NFT_POSITIONS_SORT_CREATED_AT_ASC:
          return held.oldestFirst.map((nft) => position(nft, nft.changedAt));
        case NftPositionsSort.NFT_POSITIONS_SORT_FLOOR_PRICE_DESC:
        case NftPositionsSort.NFT_POSITIONS_SORT_FLOOR_PRICE_ASC: {
          // From id order, so that positions of equal floors stay in id order as the cursor's comparison has them.
          const byId = held.byId.map((nft) => position(nft, floors.get(nft.collectionKey) ?? null));
          return byId.sort(compareSortable(sort === NftPositionsSort.NFT_POSITIONS_SORT_FLOOR_PRICE_ASC));
        }
        default:
          throw new Error(`unknown sort ${sort}`);
      }
    };
    return {
      collections,
      walletCollections,
      byChain,
      sorted(sort) {
        let sorted = orders.get(sort);
        if (!sorted) orders.set(sort, (sorted = arrange(sort)));
        return sorted;
      },
      async render(positions) {
        const lastSales = await catalog.sales(positions.map(({ held: nft }) => nft.holding));
        const pageFacts = { ...facts, lastSales };
        return positions.map(({ id, held: nft }) => {
          const floor = floors.get(nft.collectionKey);
          return {
            id,
            nft: catalog.nft(held.entries.tokens.get(id)!, held.entries, pageFacts),
            amount: nft.holding.amount.toString(),
            changedAt: nft.holding.changedAt.toString(),
            ...(floor !== undefined ? { price: floor, value: floor * Number(nft.holding.amount) } : {}),
          };
        });
      },
    };
  }

  return {
    async view(context, wallet, chainIds, currency) {
      const chains = [...chainIds].sort();
      const key = `${context.network}|${wallet}|${chains.join(',')}`;
      const tokens = await versions.walletTokens(wallet, ['nfts']);
      const valued = `${currentVersion(tokens)}|${currency}`;
      const cached = viewCache.get(`${key}|${currency}`);
      if (cached?.version === valued) return cached.value;
      const held = await holdingsOf(key, unpricedVersion(tokens), wallet, chains, context);
      // Floors are shared by every wallet read under the same rollback, price and NFT market tokens.
      const view = value(held, await catalog.market(held.entries, currency, context, [], sharedVersion(tokens)));
      viewCache.set(`${key}|${currency}`, { version: valued, value: view });
      return view;
    },
  };
}
