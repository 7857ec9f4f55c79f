import type { SubscriptionEntry } from './subscription-entry.js';

/**
 * Which subscriptions watch an address, in memory: one map lookup per wallet of a transaction.
 * An address watched by one subscription (the common case) costs one string, not an array, so a
 * million watched wallets fit in well under a gigabyte.
 */
export interface SubscriptionIndex {
  /** Every subscription watching `address`, enabled or not. */
  watching(address: string): SubscriptionEntry[];
  subscription(id: string): SubscriptionEntry | undefined;
  put(entry: SubscriptionEntry): void;
  /** Forgets the subscription and all its wallets. */
  remove(id: string): void;
  addWallets(id: string, addresses: readonly string[]): void;
  removeWallets(id: string, addresses: readonly string[]): void;
  /** Takes every wallet of the subscription out (a walk over all wallets: replacing a list is rare). */
  clearWallets(id: string): void;
  readonly walletCount: number;
  readonly subscriptionCount: number;
}

export function createSubscriptionIndex(): SubscriptionIndex {
  const subscriptions = new Map<string, SubscriptionEntry>();
  const wallets = new Map<string, string | string[]>();
  let walletCount = 0;

  function add(address: string, id: string): void {
    const current = wallets.get(address);
    if (current === undefined) wallets.set(address, id);
    else if (typeof current === 'string') {
      if (current === id) return;
      wallets.set(address, [current, id]);
    } else {
      if (current.includes(id)) return;
      current.push(id);
    }
    walletCount += 1;
  }

  function drop(address: string, id: string): void {
    const current = wallets.get(address);
    if (current === undefined) return;
    if (typeof current === 'string') {
      if (current !== id) return;
      wallets.delete(address);
    } else {
      const at = current.indexOf(id);
      if (at < 0) return;
      current.splice(at, 1);
      if (current.length === 1) wallets.set(address, current[0]!);
    }
    walletCount -= 1;
  }

  function clearWallets(id: string): void {
    for (const [address, ids] of wallets) {
      if (ids === id || (typeof ids !== 'string' && ids.includes(id))) drop(address, id);
    }
  }

  return {
    watching(address) {
      const ids = wallets.get(address);
      if (ids === undefined) return [];
      const found: SubscriptionEntry[] = [];
      for (const id of typeof ids === 'string' ? [ids] : ids) {
        const entry = subscriptions.get(id);
        if (entry) found.push(entry);
      }
      return found;
    },
    subscription: (id) => subscriptions.get(id),
    put(entry) {
      subscriptions.set(entry.id, entry);
    },
    remove(id) {
      if (!subscriptions.delete(id)) return;
      clearWallets(id);
    },
    addWallets(id, addresses) {
      for (const address of addresses) add(address, id);
    },
    removeWallets(id, addresses) {
      for (const address of addresses) drop(address, id);
    },
    clearWallets,
    get walletCount() {
      return walletCount;
    },
    get subscriptionCount() {
      return subscriptions.size;
    },
  };
}
