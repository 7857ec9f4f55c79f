import { inBatches, maxReferenceDataItems } from './reference-data-batches.js';

describe('inBatches', () => {
  test.each([
    [0, []],
    [1, [1]],
    [maxReferenceDataItems, [maxReferenceDataItems]],
    [maxReferenceDataItems + 1, [maxReferenceDataItems, 1]],
    [2 * maxReferenceDataItems + 5, [maxReferenceDataItems, maxReferenceDataItems, 5]],
  ])('%i items go in requests of %j, in order', (count, sizes) => {
    const items = Array.from({ length: count }, (_, index) => index);
    const batches = inBatches(items);
    expect(batches.map((batch) => batch.length)).toEqual(sizes);
    expect(batches.flat()).toEqual(items);
  });
});
