import type { MarketStore } from '../store/market-store.js';
import { collectionKeyOf } from '../store/token-store.js';

/**
 * Collection floors as read under one version of the tokens every wallet shares (rollbacks,
 * prices, and NFT market moves, which every market event and every NFT move replaces). After a
 * move each wallet's valued view is rebuilt, and each rebuild read the floors of its collections
 * again: the same collections for many wallets, a query of about 10 ms. The first rebuild under a
 * version reads them and later ones take them from here; only collections no reader asked about
 * under that version are read (on the live devnet, 447 floor queries in a bench:mix run became 237:
 * versions change about every second).
 */
export interface FloorMemo {
  floors(collections: readonly { chainId: string; contract: string }[], version: string): Promise<Map<string, bigint>>;
}

export interface FloorMemoOptions {
  /** Collections kept for one version at most (those without a floor count too): beyond, the memo starts afresh. */
  maxCollections?: number;
}

/** What one version's readers found; `null`: read, and no listing stands. */
interface VersionFloors {
  version: string;
  floors: Map<string, bigint | null>;
}

export function createFloorMemo(market: Pick<MarketStore, 'floors'>, options: FloorMemoOptions = {}): FloorMemo {
  const maxCollections = options.maxCollections ?? 100_000;
  let current: VersionFloors = { version: '', floors: new Map() };

  return {
    async floors(collections, version) {
      // The newest version asked replaces the kept one; a read still under way for an older one
      // answers its caller and goes with the object it was started on.
      if (current.version !== version || current.floors.size > maxCollections) current = { version, floors: new Map() };
      const kept = current;
      const found = new Map<string, bigint>();
      const missing = new Map<string, { chainId: string; contract: string }>();
      for (const collection of collections) {
        const key = collectionKeyOf(collection);
        const floor = kept.floors.get(key);
        if (floor === undefined) missing.set(key, collection);
        else if (floor !== null) found.set(key, floor);
      }
      if (missing.size === 0) return found;
      const read = await market.floors([...missing.values()]);
      for (const key of missing.keys()) {
        const floor = read.get(key);
        if (floor !== undefined) found.set(key, floor);
        kept.floors.set(key, floor ?? null);
      }
      return found;
    },
  };
}
