import { status } from '@grpc/grpc-js';
import { unary } from '../grpc/index.js';
import type { Logger } from '../logger/index.js';
import type { RequestContext } from '../proto/common.js';
import type { ReferenceDataClient } from '../proto/reference_data.js';
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
  quotes(tokens: readonly { chainId: string; address: string }[], currency: string, context: RequestContext | undefined, generation: string | undefined): Promise<Map<string, PriceQuote>>;
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
export function createPriceQuotes(
  referenceData: ReferenceDataClient,
  logger: Logger,
  options: { ttlMs?: number } = {},
): PriceQuotes {
  const current = createExpiringCache<number | null>({ ttlMs: options.ttlMs ?? 15_000 });
  const past = createExpiringCache<number | null>({ ttlMs: options.ttlMs ?? 15_000 });
  let warnedUnimplemented = false;

  return {
    async quotes(tokens, currency, context, generation) {
      const dayAgo = Math.floor(Date.now() / 1000 / 60) * 60 - day;
      const cacheable = generation !== undefined;
      const scope = `${generation}:${currency}`;
      const unique = [...new Map(tokens.map((token) => [quoteKey(token.chainId, token.address), token])).values()];
      const keyNow = (token: { chainId: string; address: string }) => `${scope}:${quoteKey(token.chainId, token.address)}`;
      const keyPast = (token: { chainId: string; address: string }) => `${scope}:${dayAgo}:${quoteKey(token.chainId, token.address)}`;
      // Answers are collected here rather than read back from the caches, which may expire meanwhile.
      const now = new Map<string, number | null>();
      const before = new Map<string, number | null>();
      const queries: { token: { chainId: string; address: string }; timestamp: number }[] = [];
      for (const token of unique) {
        const key = quoteKey(token.chainId, token.address);
        const cachedNow = cacheable ? current.get(keyNow(token)) : undefined;
        const cachedBefore = cacheable ? past.get(keyPast(token)) : undefined;
        if (cachedNow === undefined) queries.push({ token, timestamp: 0 });
        else now.set(key, cachedNow);
        if (cachedBefore === undefined) queries.push({ token, timestamp: dayAgo });
        else before.set(key, cachedBefore);
      }
      if (queries.length > 0) {
        const response = await unary(
          referenceData,
          referenceData.getPrices,
          { context, currency, queries: queries.map((query) => ({ token: { chainId: query.token.chainId, address: query.token.address }, timestamp: String(query.timestamp) })) },
          { name: 'ReferenceData/GetPrices' },
        ).catch((error: { code?: number }) => {
          if (error.code !== status.UNIMPLEMENTED) throw error;
          if (!warnedUnimplemented) logger.warn('reference-data does not serve prices: positions are answered without values');
          warnedUnimplemented = true;
          return undefined;
        });
        if (response) {
          queries.forEach((query, index) => {
            const price = response.prices[index]?.price ?? null;
            const key = quoteKey(query.token.chainId, query.token.address);
            if (query.timestamp === 0) {
              if (cacheable) current.set(keyNow(query.token), price);
              now.set(key, price);
            } else {
              if (cacheable) past.set(keyPast(query.token), price);
              before.set(key, price);
            }
          });
        }
      }
      return new Map(unique.map((token) => {
        const key = quoteKey(token.chainId, token.address);
        return [key, { now: now.get(key) ?? undefined, dayAgo: before.get(key) ?? undefined }];
      }));
    },
  };
}
