import { epochScoped } from './epoch-scoped.js';

describe('epochScoped', () => {
  test('the same store while the epoch holds, a new empty one under another', () => {
    const under = epochScoped(() => new Map<string, number>());
    under('a').set('x', 1);
    expect(under('a').get('x')).toBe(1);
    expect(under('b').has('x')).toBe(false);
    under('b').set('y', 2);
    // Back to an earlier epoch: nothing of it was kept.
    expect(under('a').size).toBe(0);
  });
});
