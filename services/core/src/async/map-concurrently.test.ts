import { mapConcurrently } from './map-concurrently.js';

describe('mapConcurrently', () => {
  test('keeps the order of the items and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapConcurrently([50, 10, 30, 0, 20, 40], 2, async (delay, index) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running--;
      return `${index}:${delay}`;
    });
    expect(results).toEqual(['0:50', '1:10', '2:30', '3:0', '4:20', '5:40']);
    expect(most).toBe(2);
  });

  test('fails with the first failure and starts no item after it', async () => {
    const started: number[] = [];
    await expect(
      mapConcurrently([1, 2, 3, 4], 1, async (item) => {
        started.push(item);
        if (item === 2) throw new Error('two failed');
        return item;
      }),
    ).rejects.toThrow('two failed');
    expect(started).toEqual([1, 2]);
  });

  test('no items, no work', async () => {
    await expect(mapConcurrently([], 4, async () => 1)).resolves.toEqual([]);
  });
});
