import type { Holding } from '../store/ownership-store.js';
import type { CollectionRow } from '../store/token-store.js';
import type { CatalogEntries } from './nft-catalog.js';
import { nftId } from './nft-resources.js';

/** One held NFT with what its sorts and sums need that no price changes. */
export interface HeldNft {
  /** Index in `WalletHoldings.byId`. */
  index: number;
  id: string;
  holding: Holding;
  /** `<chain>:<contract>`. */
  collectionKey: string;
  changedAt: number;
}

/** What a wallet holds of one collection. */
export interface HeldCollection {
  row: CollectionRow;
  count: bigint;
  minChangedAt: number;
  maxChangedAt: number;
  chainIds: string[];
}

/**
 * A wallet's holdings arranged once per change of them (never per price move): by id, newest and
 * oldest change first, and summed per collection. Valuing them then costs one floor per collection.
 */
export interface WalletHoldings {
  entries: CatalogEntries;
  byId: HeldNft[];
  newestFirst: HeldNft[];
  oldestFirst: HeldNft[];
  collections: Map<string, HeldCollection>;
}

const byChangeThenId = (ascending: boolean) => (a: HeldNft, b: HeldNft) =>
  a.changedAt !== b.changedAt ? (ascending ? a.changedAt - b.changedAt : b.changedAt - a.changedAt) : a.index - b.index;

export function arrangeHoldings(holdings: readonly Holding[], entries: CatalogEntries): WalletHoldings {
  const byId: HeldNft[] = [];
  for (const holding of holdings) {
    const id = nftId(holding);
    const collectionKey = `${holding.chainId}:${holding.contract}`;
    // Rows are written before the entries and openings that name them; a missing one is a token of another replica's write in flight.
    if (!entries.tokens.has(id) || !entries.collections.has(collectionKey)) continue;
    byId.push({ index: 0, id, holding, collectionKey, changedAt: Number(holding.changedAt) });
  }
  byId.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const collections = new Map<string, HeldCollection>();
  byId.forEach((held, index) => {
    held.index = index;
    const collection = collections.get(held.collectionKey);
    if (!collection) {
      collections.set(held.collectionKey, {
        row: entries.collections.get(held.collectionKey)!,
        count: held.holding.amount,
        minChangedAt: held.changedAt,
        maxChangedAt: held.changedAt,
        chainIds: [held.holding.chainId],
      });
      return;
    }
    collection.count += held.holding.amount;
    collection.minChangedAt = Math.min(collection.minChangedAt, held.changedAt);
    collection.maxChangedAt = Math.max(collection.maxChangedAt, held.changedAt);
  });
  return { entries, byId, newestFirst: [...byId].sort(byChangeThenId(false)), oldestFirst: [...byId].sort(byChangeThenId(true)), collections };
}
