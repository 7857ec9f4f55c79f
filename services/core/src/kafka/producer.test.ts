import { byRequest } from './producer.js';

const message = (bytes: number) => ({ value: Buffer.alloc(bytes) });

describe('byRequest', () => {
  test('groups consecutive messages under the byte budget, in order', () => {
    const messages = [300, 300, 300, 500, 100, 100].map(message);
    expect(byRequest(messages, 1_000).map((request) => request.map((entry) => entry.value.length))).toEqual([
      [300, 300, 300],
      [500, 100, 100],
    ]);
  });

  test('a message over the budget goes alone; nothing is dropped', () => {
    const messages = [100, 2_000, 100].map(message);
    const requests = byRequest(messages, 1_000);
    expect(requests.map((request) => request.length)).toEqual([1, 1, 1]);
    expect(requests.flat()).toEqual(messages);
  });

  test('no messages, no requests', () => {
    expect(byRequest([], 1_000)).toEqual([]);
  });
});
