import { inBatches, inBatchesAnswered, maxReferenceDataItems } from './reference-data-batches.js';

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

describe('inBatchesAnswered', () => {
  test('answers come back in the order asked however the calls finish, at most `concurrency` in flight', async () => {
    const items = Array.from({ length: 5 * maxReferenceDataItems + 7 }, (_, index) => index);
    let inFlight = 0;
    let most = 0;
    const answers = await inBatchesAnswered(
      items,
      async (batch) => {
        most = Math.max(most, ++inFlight);
        // Later batches finish first.
        await new Promise((resolve) => setTimeout(resolve, 30 - (batch[0]! / maxReferenceDataItems) * 5));
        inFlight -= 1;
        return batch.map((item) => item * 2);
      },
      3,
    );
    expect(answers).toEqual(items.map((item) => item * 2));
    expect(most).toBe(3);
    expect(await inBatchesAnswered([], async () => [1])).toEqual([]);
  });
});
