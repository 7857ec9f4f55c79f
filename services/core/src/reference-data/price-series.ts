import { unary } from '../grpc/index.js';
import type { RequestContext } from '../generated/proto/common.js';
import type { PriceSeriesQuery, ReferenceDataClient } from '../generated/proto/reference_data.js';
import { inBatchesAnswered } from '../resources/reference-data-batches.js';

/** A token's price over a span as GetPriceSeries gives it: each price holds from its time until the next time. */
export interface PriceSteps {
  times: number[];
  /** Undefined: no price from that time on. */
  prices: (number | undefined)[];
}

/** A series' price at a time in its span; undefined before its first time or where it has no price. */
export function priceAtStep(steps: PriceSteps, time: number): number | undefined {
  let low = 0;
  let high = steps.times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (steps.times[middle]! <= time) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : steps.prices[low - 1];
}

/**
 * GetPriceSeries for any number of spans: batches of reference-data's limit, `concurrency` of them
 * in flight, one answer per query in the order asked (undefined: a token without steps, priced by
 * chain reads at each block, for which GetPrices answers).
 */
export async function priceSeries(
  referenceData: ReferenceDataClient,
  request: { context: RequestContext; currency: string; queries: readonly PriceSeriesQuery[] },
  concurrency = 4,
): Promise<(PriceSteps | undefined)[]> {
  return inBatchesAnswered(
    request.queries,
    async (queries) => {
      const response = await unary(
        referenceData,
        referenceData.getPriceSeries,
        { context: request.context, currency: request.currency, queries },
        { name: 'ReferenceData/GetPriceSeries' },
      );
      return response.series.map((series) =>
        series.stepwise ? { times: series.times, prices: series.prices.map((price) => (Number.isNaN(price) ? undefined : price)) } : undefined,
      );
    },
    concurrency,
  );
}
