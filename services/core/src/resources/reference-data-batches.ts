/** Reference-data refuses a request of more items (price queries, fungible ids and implementations together). */
export const maxReferenceDataItems = 1_000;

/** `items` cut into requests reference-data accepts: one for a response of ordinary size. */
export function inBatches<T>(items: readonly T[], size = maxReferenceDataItems): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));
}
