import { status } from '@grpc/grpc-js';
import { unary } from '../grpc/index.js';
import type { Logger } from '../logger/index.js';
import type { RequestContext } from '../generated/proto/common.js';
import type { ReferenceDataClient } from '../generated/proto/reference_data.js';
import type { PriceQuote } from '../resources/position-value.js';
import { createExpiringCache } from './expiring-cache.js';

export interface PriceQuotes {
  /**
   * Prices now and a day ago of each token, keyed `<chain>:<address>`; one GetPrices call for what
   * is not cached. `generation`: a token that changes whenever prices may have
   * (ChangeVersions.everything, read by the caller); prices kept under another are asked again, so
   * a price move already applied is never valued from before it. Undefined (Redis could not be
   * read): every price is asked, and nothing asked is kept.
   */
  quotes(
    tokens: readonly { chainId: string; address: string }[],
    currency: string,
    context: RequestContext | undefined,
    generation: string | undefined,
  ): Promise<Map<string, PriceQuote>>;
}

/** A token's key in `quotes`' answer. */
export const quoteKey = (chainId: string, address: string) => `${chainId}:${address}`;

const day = 24 * 60 * 60;

/**
 * Prices from reference-data's GetPrices, cached for `ttlMs` (by default 15 s): the price now and
 * the price at the minute a day ago (which changes too, while the pools of that time are folded or
 * rolled back). A reference-data that does not serve prices yet (UNIMPLEMENTED) leaves every
 * asset unpriced. What positions are valued with, in the positions service and in the gateway,
 * which values the rows it keeps across price moves.
 */
export function createPriceQuotes(referenceData: ReferenceDataClient, logger: Logger, options: { ttlMs?: number } = {}): PriceQuotes {
  const current = createExpiringCache<number | null>({ ttlMs: options.ttlMs ?? 15_000 });
  const past = createExpiringCache<number | null>({ ttlMs: options.ttlMs ?? 15_000 });
  /** Prices being asked for, by cache key (which holds the generation): every answer after a price move asks at once. */
  const asking = new Map<string, Promise<number | null>>();
  let warnedUnimplemented = false;

  return {
    async quotes(tokens, currency, context, generation) {
      const dayAgo = Math.floor(Date.now() / 1000 / 60) * 60 - day;
      const cacheable = generation !== undefined;
      const scope = `${generation}:${currency}`;
      const unique = [...new Map(tokens.map((token) => [quoteKey(token.chainId, token.address), token])).values()];
      // Answers are collected here, by time and token, rather than read back from the caches, which may expire meanwhile.
      const answers = new Map<string, number | null>();
      const waiting: Promise<void>[] = [];
      type Query = { token: { chainId: string; address: string }; timestamp: number; cache: typeof current; cacheKey: string; answerKey: string };
      const queries: Query[] = [];
      for (const token of unique) {
        const key = quoteKey(token.chainId, token.address);
        for (const [timestamp, cache, cacheKey] of [
          [0, current, `${scope}:${key}`],
          [dayAgo, past, `${scope}:${dayAgo}:${key}`],
        ] as const) {
          const answerKey = `${timestamp}:${key}`;
          const kept = cacheable ? cache.get(cacheKey) : undefined;
          const running = cacheable ? asking.get(cacheKey) : undefined;
          if (kept !== undefined) answers.set(answerKey, kept);
          else if (running) waiting.push(running.then((price) => void answers.set(answerKey, price)));
          else queries.push({ token, timestamp, cache, cacheKey, answerKey });
        }
      }
      if (queries.length > 0) {
        const response = unary(
          referenceData,
          referenceData.getPrices,
          {
            context,
            currency,
            queries: queries.map((query) => ({ token: { chainId: query.token.chainId, address: query.token.address }, timestamp: String(query.timestamp) })),
          },
          { name: 'ReferenceData/GetPrices' },
        ).catch((error: { code?: number }) => {
          if (error.code !== status.UNIMPLEMENTED) throw error;
          if (!warnedUnimplemented) logger.warn('reference-data does not serve prices: positions are answered without values');
          warnedUnimplemented = true;
          return undefined;
        });
        const prices = queries.map((query, index) => {
          const price = response.then((answered) => {
            const found = answered?.prices[index]?.price ?? null;
            // Without an answer (UNIMPLEMENTED) nothing is kept: the next call asks again.
            if (answered && cacheable) query.cache.set(query.cacheKey, found);
            answers.set(query.answerKey, found);
            return found;
          });
          if (cacheable) {
            asking.set(query.cacheKey, price);
            const done = () => void (asking.get(query.cacheKey) === price && asking.delete(query.cacheKey));
            price.then(done, done);
          }
          return price;
        });
        await Promise.all(prices);
      }
      await Promise.all(waiting);
      return new Map(
        unique.map((token) => {
          const key = quoteKey(token.chainId, token.address);
          return [key, { now: answers.get(`0:${key}`) ?? undefined, dayAgo: answers.get(`${dayAgo}:${key}`) ?? undefined }];
        }),
      );
    },
  };
}
