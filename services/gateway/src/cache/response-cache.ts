import { createVersionedCache, currentVersion, type ChangeVersions, type VersionedCache, type VersionedCacheObserver } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import { Counter, Histogram, processRegistry } from '@wallet-api/core/metrics';
import { encodedSize, type EncodedAnswer } from './encoded-answer.js';

export type { CacheOutcome, ServeRequest, VersionedCache } from '@wallet-api/core/cache';

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

/** The gateway's caches report to its answer-cache metrics. */
export const gatewayCacheObserver: VersionedCacheObserver = {
  outcome: (route, outcome) => cachedAnswers.inc({ route, outcome }),
  computing: (route) => computations.startTimer({ route }),
};

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

/**
 * Answers kept per (route, URL, caller's entitlements) and checked against the wallet's change
 * tokens on every request: one Redis round trip instead of the gRPC calls and serialization
 * behind an answer.
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
    observer: gatewayCacheObserver,
  });
}
