import { currentVersion, unpricedVersion, type ChangeVersions } from '@wallet-api/core/cache';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { NftCollection, NftPosition, WalletNftCollection } from '@wallet-api/core/proto/nft';
import { LRUCache } from 'lru-cache';
import type { Holding, OwnershipStore } from '../store/ownership-store.js';
import type { CatalogEntries, NftCatalog } from './nft-catalog.js';
import { nftId, type MarketFacts } from './nft-resources.js';
import type { Sortable } from './page-cursor.js';

/** One position with the keys it is sorted by; its message is rendered only when a page shows it. */
export interface PositionItem {
  id: string;
  holding: Holding;
  collectionId: string;
  changedAt: number;
  /** Price of one token (the collection floor); undefined without one. */
  floor: number | undefined;
}

export type SortedPosition = Sortable & { item: PositionItem };

/** Everything a wallet's NFT answers are cut from, valued in one currency. */
export interface WalletNftView {
  positions: PositionItem[];
  collections: Map<string, NftCollection>;
  walletCollections: Map<string, WalletNftCollection>;
  /** Chain id -> floor value of what is held there. */
  byChain: Map<string, number>;
  /** The positions with their sort keys in an order, sorted once per view and order. */
  sorted(order: string, keyOf: (item: PositionItem) => Sortable, compare: (a: Sortable, b: Sortable) => number): SortedPosition[];
  /** The messages of a page's positions, their tokens' last sales read now. */
  render(items: readonly PositionItem[]): Promise<NftPosition[]>;
}

export interface WalletNfts {
  view(context: RequestContext, wallet: string, chainIds: readonly string[], currency: string): Promise<WalletNftView>;
}

interface HoldingsEntry {
  version: string;
  holdings: Holding[];
  entries: CatalogEntries;
}

interface ViewEntry {
  version: string;
  view: WalletNftView;
}

/**
 * A wallet's NFT view, kept per wallet and chains: its holdings and catalog entries under the
 * wallet's `nfts` token (blind to price moves), the valued view under the price token as well,
 * so sorting and paging of one version never reads the database again.
 */
export function createWalletNfts(options: { ownership: OwnershipStore; catalog: NftCatalog; versions: ChangeVersions; maxWallets: number }): WalletNfts {
  const { ownership, catalog, versions } = options;
  const holdingsCache = new LRUCache<string, HoldingsEntry>({ max: options.maxWallets });
  const viewCache = new LRUCache<string, ViewEntry>({ max: options.maxWallets });

  async function holdingsOf(key: string, version: string, wallet: string, chainIds: readonly string[], context: RequestContext): Promise<HoldingsEntry> {
    const cached = holdingsCache.get(key);
    if (cached?.version === version) return cached;
    const holdings = await ownership.holdings(wallet, chainIds);
    const entries = await catalog.entries(holdings, context);
    const entry = { version, holdings, entries };
    holdingsCache.set(key, entry);
    return entry;
  }

  /**
   * Keys, sums and collections for every position; the messages of positions wait for a page to
   * show them. A price move recomputes this, so it stays linear and light for 10,000 NFTs.
   */
  function build(holdings: readonly Holding[], entries: CatalogEntries, facts: MarketFacts): WalletNftView {
    const collections = new Map<string, NftCollection>();
    const walletCollections = new Map<string, WalletNftCollection & { chains: Set<string>; count: bigint }>();
    const byChain = new Map<string, number>();
    const ids = new Map<string, string>();
    const positions = holdings.flatMap((holding): PositionItem[] => {
      const key = `${holding.chainId}:${holding.contract}`;
      const row = entries.collections.get(key);
      // Rows are written before the entries and openings that name them; a missing one is a token of another replica's write in flight.
      if (!row || !entries.tokens.has(nftId(holding))) return [];
      let collectionId = ids.get(key);
      if (collectionId === undefined) {
        const collection = catalog.collection(row, entries, facts);
        collectionId = collection.id;
        ids.set(key, collectionId);
        collections.set(collectionId, collection);
      }
      const floor = collections.get(collectionId)!.floorPrice;
      const value = floor === undefined ? 0 : floor * Number(holding.amount);
      const changedAt = Number(holding.changedAt);
      const summary = walletCollections.get(collectionId) ?? {
        collectionId,
        chainIds: [],
        chains: new Set<string>(),
        count: 0n,
        minChangedAt: holding.changedAt.toString(),
        maxChangedAt: holding.changedAt.toString(),
        nftsCount: '0',
        totalFloorPrice: 0,
      };
      summary.chains.add(holding.chainId);
      summary.count += holding.amount;
      if (changedAt < Number(summary.minChangedAt)) summary.minChangedAt = holding.changedAt.toString();
      if (changedAt > Number(summary.maxChangedAt)) summary.maxChangedAt = holding.changedAt.toString();
      summary.totalFloorPrice += value;
      walletCollections.set(collectionId, summary);
      byChain.set(holding.chainId, (byChain.get(holding.chainId) ?? 0) + value);
      return [{ id: nftId(holding), holding, collectionId, changedAt, floor }];
    });
    const summaries = new Map<string, WalletNftCollection>();
    for (const [id, { chains, count, ...summary }] of walletCollections) summaries.set(id, { ...summary, chainIds: [...chains].sort(), nftsCount: count.toString() });
    const orders = new Map<string, SortedPosition[]>();
    return {
      positions,
      collections,
      walletCollections: summaries,
      byChain,
      sorted(order, keyOf, compare) {
        let sorted = orders.get(order);
        if (!sorted) orders.set(order, (sorted = positions.map((item) => ({ ...keyOf(item), item })).sort(compare)));
        return sorted;
      },
      async render(items) {
        const lastSales = await catalog.sales(items.map((item) => item.holding));
        const pageFacts = { ...facts, lastSales };
        return items.map(({ id, holding, floor }) => ({
          id,
          nft: catalog.nft(entries.tokens.get(id)!, entries, pageFacts),
          amount: holding.amount.toString(),
          changedAt: holding.changedAt.toString(),
          ...(floor !== undefined ? { price: floor, value: floor * Number(holding.amount) } : {}),
        }));
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
      if (cached?.version === valued) return cached.view;
      const { holdings, entries } = await holdingsOf(key, unpricedVersion(tokens), wallet, chains, context);
      const facts = await catalog.market(entries, currency, context, []);
      const view = build(holdings, entries, facts);
      viewCache.set(`${key}|${currency}`, { version: valued, view });
      return view;
    },
  };
}
