import { currentVersion, unpricedVersion, type ChangeVersions } from '@wallet-api/core/cache';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { NftCollection, NftPosition, WalletNftCollection } from '@wallet-api/core/proto/nft';
import { LRUCache } from 'lru-cache';
import type { Holding, OwnershipStore } from '../store/ownership-store.js';
import type { CatalogEntries, NftCatalog } from './nft-catalog.js';
import { nftId } from './nft-resources.js';

/** One position with the keys it is sorted by. */
export interface PositionItem {
  id: string;
  message: NftPosition;
  collectionId: string;
  changedAt: number;
  /** Price of one token (the collection floor); undefined without one. */
  floor: number | undefined;
}

/** Everything a wallet's NFT answers are cut from, valued in one currency. */
export interface WalletNftView {
  positions: PositionItem[];
  collections: Map<string, NftCollection>;
  walletCollections: Map<string, WalletNftCollection>;
  /** Chain id -> floor value of what is held there. */
  byChain: Map<string, number>;
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

  function build(holdings: readonly Holding[], entries: CatalogEntries, facts: Awaited<ReturnType<NftCatalog['market']>>): WalletNftView {
    const collections = new Map<string, NftCollection>();
    const walletCollections = new Map<string, WalletNftCollection & { chains: Set<string>; count: bigint }>();
    const byChain = new Map<string, number>();
    const positions = holdings.flatMap((holding): PositionItem[] => {
      const token = entries.tokens.get(nftId(holding));
      const row = entries.collections.get(`${holding.chainId}:${holding.contract}`);
      // Rows are written before the entries and openings that name them; a missing one is a token of another replica's write in flight.
      if (!token || !row) return [];
      const nft = catalog.nft(token, entries, facts);
      const collectionId = nft.collectionId;
      if (!collections.has(collectionId)) collections.set(collectionId, catalog.collection(row, entries, facts));
      const floor = nft.floorPrice;
      const value = floor === undefined ? undefined : floor * Number(holding.amount);
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
      summary.totalFloorPrice += value ?? 0;
      walletCollections.set(collectionId, summary);
      byChain.set(holding.chainId, (byChain.get(holding.chainId) ?? 0) + (value ?? 0));
      return [
        {
          id: nft.id,
          collectionId,
          changedAt,
          floor,
          message: {
            id: nft.id,
            nft,
            amount: holding.amount.toString(),
            changedAt: holding.changedAt.toString(),
            ...(floor !== undefined ? { price: floor, value: value! } : {}),
          },
        },
      ];
    });
    const summaries = new Map<string, WalletNftCollection>();
    for (const [id, { chains, count, ...summary }] of walletCollections) summaries.set(id, { ...summary, chainIds: [...chains].sort(), nftsCount: count.toString() });
    return { positions, collections, walletCollections: summaries, byChain };
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
      const facts = await catalog.market(entries, currency, context);
      const view = build(holdings, entries, facts);
      viewCache.set(`${key}|${currency}`, { version: valued, view });
      return view;
    },
  };
}
