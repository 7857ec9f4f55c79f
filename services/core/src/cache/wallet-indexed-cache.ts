import { LRUCache } from 'lru-cache';

/**
 * Values kept under a budget, least recently used first out, and found by wallet as well as by
 * key: what a consumer needs to bring every kept value of a wallet up to date as its changes
 * arrive, without a scan over all of them.
 */
export interface WalletIndexedCache<V extends object> {
  /** The value, counted as used. */
  get(key: string): V | undefined;
  /** The value, not counted as used. */
  peek(key: string): V | undefined;
  /** Keeps the value under the key (replacing what was there), found by each of its wallets. */
  set(key: string, value: V): void;
  /** Counts a kept value's size again after it grew or shrank in place (it may push others out); nothing when the key holds another value or none. */
  resized(key: string, value: V): void;
  delete(key: string): void;
  /** The keys of the kept values of the wallet. */
  keysOf(wallet: string): Iterable<string>;
  clear(): void;
}

export interface WalletIndexedCacheOptions<V> {
  /** The budget, in the units of `sizeOf`. */
  maxSize: number;
  sizeOf(value: V): number;
  /** The wallets a value belongs to; fixed for the value's life. */
  walletsOf(value: V): readonly string[];
}

export function createWalletIndexedCache<V extends object>(options: WalletIndexedCacheOptions<V>): WalletIndexedCache<V> {
  const keysByWallet = new Map<string, Set<string>>();

  function unindex(key: string, value: V): void {
    for (const wallet of options.walletsOf(value)) {
      const keys = keysByWallet.get(wallet);
      keys?.delete(key);
      if (keys?.size === 0) keysByWallet.delete(wallet);
    }
  }

  function keep(key: string, value: V): void {
    values.set(key, value);
    // A value larger than the whole budget is not kept: it must not be found by wallet either.
    if (values.peek(key) !== value) return;
    for (const wallet of options.walletsOf(value)) {
      const keys = keysByWallet.get(wallet);
      if (keys) keys.add(key);
      else keysByWallet.set(wallet, new Set([key]));
    }
  }

  const values = new LRUCache<string, V>({
    maxSize: options.maxSize,
    sizeCalculation: (value) => Math.max(1, options.sizeOf(value)),
    // Every way out (evicted, deleted, replaced by another value, refused as too large) leaves the index.
    dispose: (value, key) => unindex(key, value),
  });

  return {
    get: (key) => values.get(key),
    peek: (key) => values.peek(key),
    set: keep,
    resized(key, value) {
      if (values.peek(key) !== value) return;
      // lru-cache counts a size when a key gets another value, not when the same one is set
      // again: taken out and kept anew, the value is counted as it is now.
      values.delete(key);
      keep(key, value);
    },
    delete: (key) => void values.delete(key),
    keysOf: (wallet) => keysByWallet.get(wallet) ?? [],
    clear() {
      values.clear();
      keysByWallet.clear();
    },
  };
}
