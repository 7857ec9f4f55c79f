import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger/index.js';
import type { WalletChangeTokens, WalletData } from './change-versions.js';

export type CacheOutcome = 'hit' | 'miss' | 'shared' | 'bypass';

export interface VersionedCache<T> {
  /**
   * The value for `key`, a request reading the `data` of `wallet` (or of every wallet of a set):
   * from the cache while the change tokens for that data are those it was computed under,
   * otherwise computed (once for every request that asks while it runs).
   */
  serve(request: ServeRequest, compute: (tokens: WalletChangeTokens | undefined) => Promise<T>): Promise<{ body: T; outcome: CacheOutcome }>;
}

export interface ServeRequest {
  route: string;
  wallet: string | readonly string[];
  data: readonly WalletData[];
  key: string;
  /**
   * The wallet's tokens for `data`, when the caller read them already (an enclosing answer's
   * computation): no read of its own. The computation is handed the tokens either way (undefined
   * when Redis could not be read), so its parts need not read them again.
   */
  tokens?: WalletChangeTokens | undefined;
}

/** What a cache reports of each request: its outcome, and how long a computation ran. */
export interface VersionedCacheObserver {
  outcome(route: string, outcome: CacheOutcome): void;
  /** Starts timing a computation; the returned function ends it. */
  computing(route: string): () => void;
}

export interface VersionedCacheOptions<T> {
  logger: Logger;
  /** Memory for values; the least recently used go first. */
  maxBytes: number;
  /**
   * No value is kept longer than this, whatever the tokens say: a value can also change with
   * time alone (a day-ago price moving on as the clock does), and tokens themselves expire.
   */
  maxAgeMs: number;
  /** The wallet's (or the wallets') tokens (ChangeVersions.walletTokens). */
  tokens(wallet: string | readonly string[], data: readonly WalletData[]): Promise<WalletChangeTokens>;
  /** The version a value is kept under: currentVersion, or unpricedVersion for values that price nothing. */
  versionOf(tokens: WalletChangeTokens): string;
  /** Bytes a value holds in memory, near enough to bound the cache. */
  sizeOf(value: T): number;
  /**
   * Whether a computed value may be kept; absent: every one is. A value that is only true for a
   * moment no change token marks the end of (a 202 while a wallet is first indexed) is served to
   * the requests that shared its computation, and computed again for the next.
   */
  keep?(value: T): boolean;
  observer?: VersionedCacheObserver;
}

interface Entry<T> {
  version: string;
  body: T;
}

/**
 * Values kept per key and checked against the wallet's change tokens on every request: one Redis
 * round trip (or none, when the caller read the tokens) instead of the reads behind a value. The
 * version is read before computing, so a value stored under it can only be older than a change
 * whose new token the next request reads, never older than a change already visible. When Redis
 * does not answer, requests are computed as if there were no cache.
 */
export function createVersionedCache<T>(options: VersionedCacheOptions<T>): VersionedCache<T> {
  const entries = new LRUCache<string, Entry<T>>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) => Math.max(1, options.sizeOf(entry.body) + 2 * (key.length + entry.version.length) + 64),
    ttl: options.maxAgeMs,
  });
  const running = new Map<string, { version: string; body: Promise<T> }>();
  let warnedUnavailable = 0;

  async function tokensOf(wallet: string | readonly string[], data: readonly WalletData[]): Promise<WalletChangeTokens | undefined> {
    try {
      return await options.tokens(wallet, data);
    } catch (error) {
      // One warning a minute at most: every request would otherwise log the same outage.
      if (Date.now() - warnedUnavailable > 60_000) {
        warnedUnavailable = Date.now();
        options.logger.warn({ err: error }, 'change tokens cannot be read from Redis; values are computed without the cache');
      }
      return undefined;
    }
  }

  return {
    async serve({ route, wallet, data, key, tokens: given }, compute) {
      const tokens = given ?? (await tokensOf(wallet, data));
      const answer = (body: T, outcome: CacheOutcome) => {
        options.observer?.outcome(route, outcome);
        return { body, outcome };
      };
      if (tokens === undefined) return answer(await compute(undefined), 'bypass');
      const current = options.versionOf(tokens);
      const stored = entries.get(key);
      if (stored?.version === current) return answer(stored.body, 'hit');
      const inFlight = running.get(key);
      if (inFlight?.version === current) return answer(await inFlight.body, 'shared');

      const stopTimer = options.observer?.computing(route);
      const body = compute(tokens);
      running.set(key, { version: current, body });
      try {
        const computed = await body;
        stopTimer?.();
        if (options.keep?.(computed) ?? true) entries.set(key, { version: current, body: computed });
        return answer(computed, 'miss');
      } finally {
        if (running.get(key)?.body === body) running.delete(key);
      }
    },
  };
}
