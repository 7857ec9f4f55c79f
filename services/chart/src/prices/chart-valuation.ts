import type { RequestContext } from '@wallet-api/core/proto/common';
import { TokenInterface, type ReferenceDataClient, type TokenRef } from '@wallet-api/core/proto/reference_data';
import { pricesAt, type TokenDirectory } from '@wallet-api/core/reference-data';
import { formatUnits } from 'viem';
import type { ChartAsset } from '../series/bucketed-changes.js';
import type { PointPrice, PointPriceCache, PriceLookupKey } from '@wallet-api/core/reference-data';

export interface ValuationRequest {
  context: RequestContext;
  currency: string;
  /** Only these fungibles when not empty. */
  fungibleIds: readonly string[];
  excludeFungibleIds: readonly string[];
}

export interface ChartValuation {
  /** The points at `times` (unix seconds) valued: at each, every balance times its fungible's price then, summed. */
  values(request: ValuationRequest, times: readonly number[], balances: Iterable<{ asset: ChartAsset; balances: readonly bigint[] }>): Promise<number[]>;
}

export interface ChartValuationOptions {
  referenceData: ReferenceDataClient;
  tokens: TokenDirectory;
  /** Prices of past points kept across charts; without it every point is asked every time. */
  cache?: PointPriceCache;
  /** GetPrices calls in flight at once for one chart. */
  concurrency?: number;
}

/**
 * Values from reference-data's one price per fungible at each point's time (GetPrices with the
 * point's timestamp), so a chart agrees with every other answer priced at that time. A token
 * without a price then (no trusted pool) adds nothing to that point, nor does a spam token.
 */
export function createChartValuation(options: ChartValuationOptions): ChartValuation {
  const { referenceData, tokens } = options;
  const concurrency = options.concurrency ?? 4;

  return {
    async values(request, times, series) {
      const values = new Array<number>(times.length).fill(0);
      const held = [...series].filter((entry) => entry.balances.some((balance) => balance !== 0n));
      if (held.length === 0) return values;
      const table = await tokens.load(
        held.map(({ asset }) => ({ chainId: asset.chainId, address: asset.asset })),
        request.context,
      );
      const only = new Set(request.fungibleIds);
      const excluded = new Set(request.excludeFungibleIds);
      const baseline = await options.cache?.refresh();
      const network = request.context.network;
      // One price per fungible and time (one-price rule): implementations on several chains ask once.
      const lookups = new Map<string, { key: PriceLookupKey; query: TokenRef; price: PointPrice | null }>();
      const amounts: { point: number; amount: number; lookup: string }[] = [];
      for (const { asset, balances } of held) {
        const info = table.info(asset.chainId, asset.asset);
        // Trash is left out as the positions endpoint leaves it out by default; a contract that is
        // no token (it answers none of the token calls) has no price at any time.
        if (!info || info.isSpam || info.interface === TokenInterface.TOKEN_INTERFACE_UNKNOWN) continue;
        if ((only.size > 0 && !only.has(info.fungibleId)) || excluded.has(info.fungibleId)) continue;
        const priced = info.fungibleId ? { chainId: '', asset: info.fungibleId } : asset;
        balances.forEach((balance, point) => {
          if (balance === 0n) return;
          const timestamp = times[point]!;
          const lookup = `${priced.chainId}|${priced.asset}|${timestamp}`;
          if (!lookups.has(lookup)) {
            const key = { currency: request.currency, network, chainId: priced.chainId, asset: priced.asset, timestamp };
            // Asked of the implementation that first needs it: any gives the fungible's one price.
            lookups.set(lookup, { key, query: { chainId: asset.chainId, address: asset.asset }, price: options.cache ? options.cache.get(key) : null });
          }
          amounts.push({ point, amount: Number(formatUnits(balance, info.decimals)), lookup });
        });
      }
      const missing = [...lookups.values()].filter((entry) => entry.price === null);
      const answers = await pricesAt(
        referenceData,
        { context: request.context, currency: request.currency, queries: missing.map((entry) => ({ token: entry.query, timestamp: String(entry.key.timestamp) })) },
        concurrency,
      );
      missing.forEach((entry, index) => (entry.price = answers[index]));
      if (options.cache && baseline) options.cache.keep(baseline, missing.map((entry) => ({ key: entry.key, price: entry.price ?? undefined })));
      for (const { point, amount, lookup } of amounts) {
        const price = lookups.get(lookup)!.price;
        if (price !== undefined && price !== null) values[point]! += amount * price;
      }
      return values;
    },
  };
}
