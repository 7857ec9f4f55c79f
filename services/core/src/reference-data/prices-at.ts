import { unary } from '../grpc/index.js';
import type { RequestContext } from '../generated/proto/common.js';
import type { PriceQuery, ReferenceDataClient } from '../generated/proto/reference_data.js';
import { inBatchesAnswered } from '../resources/reference-data-batches.js';

/**
 * GetPrices for any number of queries (a token, at a time or now): batches of reference-data's
 * limit, `concurrency` of them in flight, answers in the order asked (undefined: no price).
 */
export async function pricesAt(
  referenceData: ReferenceDataClient,
  request: { context: RequestContext; currency: string; queries: readonly PriceQuery[] },
  concurrency = 4,
): Promise<(number | undefined)[]> {
  return inBatchesAnswered(
    request.queries,
    async (queries) => {
      const response = await unary(
        referenceData,
        referenceData.getPrices,
        { context: request.context, currency: request.currency, queries },
        { name: 'ReferenceData/GetPrices' },
      );
      return response.prices.map((price) => price.price);
    },
    concurrency,
  );
}
