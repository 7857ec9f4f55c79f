import { currentVersion, type ChangeVersions, type WalletChangeTokens, type WalletData } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import { Counter, Histogram, processRegistry } from '@wallet-api/core/metrics';
import { LRUCache } from 'lru-cache';
import { encodedSize, type EncodedAnswer } from './encoded-answer.js';

export type CacheOutcome = 'hit' | 'miss' | 'shared' | 'bypass';

const cachedAnswers = new Counter({
  name: 'wallet_api_gateway_response_cache_total',
  help: 'Cacheable answers by route and outcome: hit (served from the cache), miss (computed), shared (waited for a computation already running), bypass (Redis could not say whether the cache was current)',
  labelNames: ['route', 'outcome'] as const,
  registers: [processRegistry],
});

const computations = new Histogram({
  name: 'wallet_api_gateway_response_cache_compute_seconds',
  help: 'Computations of cacheable answers by route (misses only): how long the requests sharing one wait',
  labelNames: ['route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [processRegistry],
});

export interface VersionedCache<T> {
  /**
   * The value for `key`, a request reading the `data` of `wallet`: from the cache while the
   * wallet's change tokens for that data are those it was computed under, otherwise computed
   * (once for every request that asks while it runs).
   */
  serve(request: ServeRequest, compute: (tokens: WalletChangeTokens | undefined) => Promise<T>): Promise<{ body: T; outcome: CacheOutcome }>;
}

export interface ServeRequest {
  route: string;
  wallet: string;
  data: readonly WalletData[];
  key: string;
  /**
   * The wallet's tokens for `data`, when the caller read them already (an enclosing answer's
   * computation): no read of its own. The computation is handed the tokens either way (undefined
   * when Redis could not be read), so its parts need not read them again.
   */
  tokens?: WalletChangeTokens;
}

/**
 * Serialized answers as the bytes sent (plain and compressed), kept under every change token of
 * their wallet: a hit writes them as they are, where a string would be encoded to UTF-8 again for
 * every request (for a 280 KB page that copy and its garbage were about a tenth of the gateway's
 * time), and compressed again for every client that accepts it.
 */
export type ResponseCache = VersionedCache<EncodedAnswer>;

export interface ResponseCacheOptions {
  versions: ChangeVersions;
  logger: Logger;
  /** Memory for answers; the least recently used go first. */
  maxBytes: number;
  /**
   * No answer is kept longer than this, whatever the tokens say: an answer can also change with
   * time alone (a day-ago price moving on as the clock does), and tokens themselves expire.
   */
  maxAgeMs: number;
}

export interface VersionedCacheOptions<T> extends Omit<ResponseCacheOptions, 'versions'> {
  /** The wallet's tokens (ChangeVersions.walletTokens). */
  tokens(wallet: string, data: readonly WalletData[]): Promise<WalletChangeTokens>;
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
}

interface Entry<T> {
  version: string;
  body: T;
}

/**
 * Answers kept per (route, URL, caller's entitlements) and checked against the wallet's change
 * tokens on every request: one Redis round trip instead of the gRPC calls and serialization
 * behind an answer. The version is read before computing, so an answer stored under it can only
 * be older than a change whose new token the next request reads, never older than a change
 * already visible. When Redis does not answer, requests are computed as if there were no cache.
 */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  return createVersionedCache<EncodedAnswer>({
    ...options,
    tokens: (wallet, data) => options.versions.walletTokens(wallet, data),
    versionOf: currentVersion,
    sizeOf: encodedSize,
    // An answer with a status of its own is the 202 of a wallet still being indexed: its end is
    // not a change token the next request could see, so it is never served from the cache.
    keep: (answer) => answer.status === undefined,
  });
}

/** The cache behind createResponseCache, for any value and any choice of the wallet's tokens. */
export function createVersionedCache<T>(options: VersionedCacheOptions<T>): VersionedCache<T> {
  const entries = new LRUCache<string, Entry<T>>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) => options.sizeOf(entry.body) + 2 * (key.length + entry.version.length) + 64,
    ttl: options.maxAgeMs,
  });
  const running = new Map<string, { version: string; body: Promise<T> }>();
  let warnedUnavailable = 0;

  async function tokensOf(wallet: string, data: readonly WalletData[]): Promise<WalletChangeTokens | undefined> {
    try {
      return await options.tokens(wallet, data);
    } catch (error) {
      // One warning a minute at most: every request would otherwise log the same outage.
      if (Date.now() - warnedUnavailable > 60_000) {
        warnedUnavailable = Date.now();
        options.logger.warn({ err: error }, 'change tokens cannot be read from Redis; answers are computed without the cache');
      }
      return undefined;
    }
  }

  return {
    async serve({ route, wallet, data, key, tokens: given }, compute) {
      const tokens = given ?? (await tokensOf(wallet, data));
      const answer = (body: T, outcome: CacheOutcome) => {
        cachedAnswers.inc({ route, outcome });
        return { body, outcome };
      };
      if (tokens === undefined) return answer(await compute(undefined), 'bypass');
      const current = options.versionOf(tokens);
      const stored = entries.get(key);
      if (stored?.version === current) return answer(stored.body, 'hit');
      const inFlight = running.get(key);
      if (inFlight?.version === current) return answer(await inFlight.body, 'shared');

      const stopTimer = computations.startTimer({ route });
      const body = compute(tokens);
      running.set(key, { version: current, body });
      try {
        const computed = await body;
        stopTimer();
        if (options.keep?.(computed) ?? true) entries.set(key, { version: current, body: computed });
        return answer(computed, 'miss');
      } finally {
        if (running.get(key)?.body === body) running.delete(key);
      }
    },
  };
}
