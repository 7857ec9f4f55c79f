import { unary } from '../grpc/index.js';
import type { RequestContext } from '../proto/common.js';
import type { PriceQuery, ReferenceDataClient } from '../proto/reference_data.js';
import { inBatches } from '../resources/reference-data-batches.js';

/**
 * GetPrices for any number of queries (a token, at a time or now): batches of reference-data's
 * limit, `concurrency` of them in flight, answers in the order asked (undefined: no price).
 */
export async function pricesAt(
  referenceData: ReferenceDataClient,
  request: { context: RequestContext; currency: string; queries: readonly PriceQuery[] },
  concurrency = 4,
): Promise<(number | undefined)[]> {
  const batches = inBatches(request.queries);
  const answers: (number | undefined)[][] = new Array(batches.length);
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      const response = await unary(referenceData, referenceData.getPrices, { context: request.context, currency: request.currency, queries: batches[index]! }, { name: 'ReferenceData/GetPrices' });
      answers[index] = response.prices.map((price) => price.price);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  return answers.flat();
}
