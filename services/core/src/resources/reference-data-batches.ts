/** Reference-data refuses a request of more items (price queries, fungible ids and implementations together). */
export const maxReferenceDataItems = 1_000;

/** `items` cut into requests reference-data accepts: one for a response of ordinary size. */
export function inBatches<T>(items: readonly T[], size = maxReferenceDataItems): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));
}

/**
 * `call` over `items` in batches reference-data accepts, `concurrency` of them in flight; the
 * answers (one per item) in the order the items were given.
 */
export async function inBatchesAnswered<T, R>(items: readonly T[], call: (batch: T[]) => Promise<R[]>, concurrency = 4): Promise<R[]> {
  const batches = inBatches(items);
  const answers: R[][] = new Array(batches.length);
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      answers[index] = await call(batches[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  return answers.flat();
}
