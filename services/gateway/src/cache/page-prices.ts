import { unary } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { TransactionRecord } from '@wallet-api/core/proto/indexer';
import type { ReferenceDataClient, TokenPrice } from '@wallet-api/core/proto/reference_data';
import { inBatches, noPrices, pagePrices, priceQueries, type PagePrices } from '@wallet-api/core/resources';
import { LRUCache } from 'lru-cache';

/** Prices of the fungibles a page of transactions moves, at their transactions' times. */
export interface PagePriceTable {
  /**
   * `generation`: the price tokens in force when the request began (ChangeVersions.everything),
   * read while the page was; undefined when they could not be read.
   */
  prices(context: RequestContext, currency: string, records: readonly TransactionRecord[], generation: string | undefined): Promise<PagePrices>;
}

export interface PagePriceTableOptions {
  /** Prices kept at most; the least recently used go first. */
  maxEntries?: number;
}

interface Entry {
  generation: string;
  price: number | undefined;
}

/**
 * GetPrices answers kept per (network, currency, token, time) under the price tokens in force:
 * a wallet's next transaction recomputes its first page, and of the page's hundred-odd (token,
 * time) pairs only the new transaction's are asked, instead of every pair again while the
 * requests that arrived meanwhile wait. A price move or a rollback replaces the tokens, and every
 * pair is asked again (a recent time's price can move with it).
 */
export function createPagePriceTable(referenceData: ReferenceDataClient, options: PagePriceTableOptions = {}): PagePriceTable {
  const entries = new LRUCache<string, Entry>({ max: options.maxEntries ?? 200_000 });

  return {
    async prices(context, currency, records, generation) {
      const queries = priceQueries(records);
      if (queries.length === 0) return noPrices;
      const keyOf = (index: number) => {
        const query = queries[index]!;
        return `${context.network}|${currency}|${query.token!.chainId}|${query.token!.address}|${query.timestamp}`;
      };
      const answers: (TokenPrice | undefined)[] = queries.map((_, index) => {
        const kept = generation === undefined ? undefined : entries.get(keyOf(index));
        if (kept === undefined || kept.generation !== generation) return undefined;
        return kept.price === undefined ? {} : { price: kept.price };
      });
      const missing = queries.flatMap((query, index) => (answers[index] === undefined ? [{ query, index }] : []));
      if (missing.length > 0) {
        const asked = await Promise.all(
          inBatches(missing).map((batch) => unary(referenceData, referenceData.getPrices, { context, currency, queries: batch.map(({ query }) => query) }, { name: 'ReferenceData/GetPrices' })),
        );
        const prices = asked.flatMap((answer) => answer.prices);
        if (prices.length !== missing.length) throw new Error(`GetPrices answered ${prices.length} prices for ${missing.length} queries`);
        missing.forEach(({ index }, position) => {
          const answer = prices[position]!;
          answers[index] = answer;
          if (generation !== undefined) entries.set(keyOf(index), { generation, price: answer.price });
        });
      }
      return pagePrices(queries, answers as TokenPrice[]);
    },
  };
}
