import { status } from '@grpc/grpc-js';
import { unary } from '@wallet-api/core/grpc';
import type { Logger } from '@wallet-api/core/logger';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createExpiringCache } from '@wallet-api/core/reference-data';
import type { PriceQuote } from '../positions/valuation.js';

export interface PriceBook {
  /** Prices now and a day ago of each token, keyed `<chain>:<address>`; one GetPrices call for what is not cached. */
  quotes(tokens: readonly { chainId: string; address: string }[], currency: string, context?: RequestContext): Promise<Map<string, PriceQuote>>;
}

export const tokenKey = (chainId: string, address: string) => `${chainId}:${address}`;

const day = 24 * 60 * 60;

/**
 * Prices from reference-data's GetPrices, cached briefly (a price "now" for `ttlMs`, by default
 * 15 s; the price a day ago at minute resolution, which does not change, for ten minutes). A
 * reference-data that does not serve prices yet (UNIMPLEMENTED) leaves every asset unpriced.
 */
export function createPriceBook(referenceData: ReferenceDataClient, logger: Logger, options: { ttlMs?: number; now?: () => number } = {}): PriceBook {
  const current = createExpiringCache<number | null>({ ttlMs: options.ttlMs ?? 15_000 });
  const past = createExpiringCache<number | null>({ ttlMs: 10 * 60_000 });
  const clock = options.now ?? Date.now;
  let warnedUnimplemented = false;

  return {
    async quotes(tokens, currency, context) {
      const dayAgo = Math.floor(clock() / 1000 / 60) * 60 - day;
      const unique = [...new Map(tokens.map((token) => [tokenKey(token.chainId, token.address), token])).values()];
      const keyNow = (token: { chainId: string; address: string }) => `${currency}:${tokenKey(token.chainId, token.address)}`;
      const keyPast = (token: { chainId: string; address: string }) => `${currency}:${dayAgo}:${tokenKey(token.chainId, token.address)}`;
      const queries = unique.flatMap((token) => [
        ...(current.get(keyNow(token)) === undefined ? [{ token, timestamp: 0 }] : []),
        ...(past.get(keyPast(token)) === undefined ? [{ token, timestamp: dayAgo }] : []),
      ]);
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
            if (query.timestamp === 0) current.set(keyNow(query.token), price);
            else past.set(keyPast(query.token), price);
          });
        }
      }
      return new Map(
        unique.map((token) => [
          tokenKey(token.chainId, token.address),
          { now: current.get(keyNow(token)) ?? undefined, dayAgo: past.get(keyPast(token)) ?? undefined },
        ]),
      );
    },
  };
}
