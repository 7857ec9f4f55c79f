import type { RequestContext } from '@wallet-api/core/proto/common';
import { TokenInterface, type ReferenceDataClient, type TokenRef } from '@wallet-api/core/proto/reference_data';
import { pricesAt, type TokenDirectory } from '@wallet-api/core/reference-data';
import { formatUnits } from 'viem';
import type { ChartAsset } from '../series/bucketed-changes.js';
import type { PointPrice, PointPriceCache, PriceSeriesKey } from '@wallet-api/core/reference-data';

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

/** A fungible's price at one point: kept, asked (null until answered), or none then (undefined). */
interface PointLookup {
  series: PriceSeriesKey;
  point: number;
  /** The implementation asked for it. */
  query: TokenRef;
  price: PointPrice | null;
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
      // One price per fungible and time (one-price rule): implementations on several chains ask
      // once. Times are the points', so a fungible's lookups are kept by point.
      const lookups = new Map<string, (PointLookup | undefined)[]>();
      const missing: PointLookup[] = [];
      // Each held amount at a point and the lookup of its price then, in the order summed.
      const heldPoints: number[] = [];
      const heldAmounts: number[] = [];
      const heldLookups: PointLookup[] = [];
      for (const { asset, balances } of held) {
        const info = table.info(asset.chainId, asset.asset);
        // Trash is left out as the positions endpoint leaves it out by default; a contract that is
        // no token (it answers none of the token calls) has no price at any time.
        if (!info || info.isSpam || info.interface === TokenInterface.TOKEN_INTERFACE_UNKNOWN) continue;
        if ((only.size > 0 && !only.has(info.fungibleId)) || excluded.has(info.fungibleId)) continue;
        const series: PriceSeriesKey = {
          currency: request.currency,
          network,
          ...(info.fungibleId ? { chainId: '', asset: info.fungibleId } : { chainId: asset.chainId, asset: asset.asset }),
        };
        const seriesKey = `${series.chainId}|${series.asset}`;
        let byPoint = lookups.get(seriesKey);
        if (!byPoint) lookups.set(seriesKey, (byPoint = new Array<PointLookup | undefined>(times.length)));
        const kept = options.cache?.series(series);
        const query = { chainId: asset.chainId, address: asset.asset };
        // A balance holds for many points in a row: converted once per change.
        let converted: { balance: bigint; amount: number } | undefined;
        for (let point = 0; point < balances.length; point++) {
          const balance = balances[point]!;
          if (balance === 0n) continue;
          if (converted?.balance !== balance) converted = { balance, amount: Number(formatUnits(balance, info.decimals)) };
          let lookup = byPoint[point];
          if (!lookup) {
            // Asked of the implementation that first needs it: any gives the fungible's one price.
            lookup = byPoint[point] = { series, point, query, price: kept ? kept(times[point]!) : null };
            if (lookup.price === null) missing.push(lookup);
          }
          heldPoints.push(point);
          heldAmounts.push(converted.amount);
          heldLookups.push(lookup);
        }
      }
      const answers = await pricesAt(
        referenceData,
        {
          context: request.context,
          currency: request.currency,
          queries: missing.map((entry) => ({ token: entry.query, timestamp: String(times[entry.point]) })),
        },
        concurrency,
      );
      missing.forEach((entry, index) => (entry.price = answers[index]));
      if (options.cache && baseline)
        options.cache.keep(
          baseline,
          missing.map((entry) => ({ key: { ...entry.series, timestamp: times[entry.point]! }, price: entry.price ?? undefined })),
        );
      for (let index = 0; index < heldPoints.length; index++) {
        const price = heldLookups[index]!.price;
        if (price !== undefined && price !== null) values[heldPoints[index]!]! += heldAmounts[index]! * price;
      }
      return values;
    },
  };
}
