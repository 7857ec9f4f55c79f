import type { ChangeVersions } from '@wallet-api/core/cache';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { TransactionRecord } from '@wallet-api/core/proto/indexer';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createPointPriceCache, pricesAt, type PriceLookupKey } from '@wallet-api/core/reference-data';
import { noPrices, pagePrices, priceQueries, type PagePrices } from '@wallet-api/core/resources';

/** Prices of the fungibles a page of transactions moves, at their transactions' times. */
export interface PagePriceTable {
  prices(context: RequestContext, currency: string, records: readonly TransactionRecord[]): Promise<PagePrices>;
}

export interface PagePriceTableOptions {
  /** The price and rollback tokens, and the moves between them; without them every pair is asked every time. */
  versions?: Pick<ChangeVersions, 'everythingAndPrices' | 'pricesMovedSince'>;
  /** Prices kept at most. */
  maxEntries?: number;
  /** Prices of times at least this old are kept: later blocks may still move a newer one. */
  settleSeconds?: number;
}

/**
 * GetPrices answers kept per (network, currency, token, time) across requests and price moves: a
 * price move announces the earliest time it touched, so a page's transactions older than that
 * keep their prices and only the newer pairs are asked again (a rollback, or moves the log no
 * longer holds, drop them all). A wallet's next transaction likewise asks only its own pairs.
 */
export function createPagePriceTable(referenceData: ReferenceDataClient, options: PagePriceTableOptions = {}): PagePriceTable {
  const { versions } = options;
  const cache = versions
    ? createPointPriceCache({ versions, settleSeconds: options.settleSeconds ?? 600, maxEntries: options.maxEntries ?? 200_000 })
    : undefined;

  return {
    async prices(context, currency, records) {
      const queries = priceQueries(records);
      if (queries.length === 0) return noPrices;
      // Redis unreachable: nothing kept can be trusted, and nothing asked is kept.
      const baseline = await cache?.refresh().catch(() => undefined);
      const keys: PriceLookupKey[] = queries.map((query) => ({
        currency,
        network: context.network,
        chainId: query.token!.chainId,
        asset: query.token!.address,
        timestamp: Number(query.timestamp),
      }));
      const prices = keys.map((key) => (baseline ? cache!.get(key) : null));
      const missing = prices.flatMap((price, index) => (price === null ? [index] : []));
      if (missing.length > 0) {
        const answers = await pricesAt(referenceData, { context, currency, queries: missing.map((index) => queries[index]!) });
        missing.forEach((index, position) => (prices[index] = answers[position]));
        if (baseline)
          cache!.keep(
            baseline,
            missing.map((index, position) => ({ key: keys[index]!, price: answers[position] })),
          );
      }
      return pagePrices(
        queries,
        prices.map((price) => (price === undefined || price === null ? {} : { price })),
      );
    },
  };
}
