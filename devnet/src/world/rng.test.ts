import { createRng } from './rng.js';

describe('createRng', () => {
  test('the same seed gives the same sequence; another seed or fork differs', () => {
    const draw = (seed: string) =>
      Array.from(
        { length: 5 },
        (() => {
          const rng = createRng(seed);
          return () => rng.next();
        })(),
      );
    expect(draw('a')).toEqual(draw('a'));
    expect(draw('a')).not.toEqual(draw('b'));
    expect(createRng('a').fork('x').next()).toBe(createRng('a').fork('x').next());
    expect(createRng('a').fork('x').next()).not.toBe(createRng('a').fork('y').next());
  });

  test('ranges are inclusive and respected', () => {
    const rng = createRng('ranges');
    const ints = Array.from({ length: 2000 }, () => rng.int(3, 6));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5, 6]));
    const bigs = Array.from({ length: 500 }, () => rng.bigint(10n ** 18n, 10n ** 18n + 3n));
    expect(bigs.every((value) => value >= 10n ** 18n && value <= 10n ** 18n + 3n)).toBe(true);
    expect(new Set(bigs).size).toBe(4);
  });

  test('weighted picks follow the weights and never pick weight 0', () => {
    const rng = createRng('weights');
    const picks = Array.from({ length: 4000 }, () =>
      rng.weighted([
        { weight: 3, value: 'a' },
        { weight: 1, value: 'b' },
        { weight: 0, value: 'never' },
      ]),
    );
    const a = picks.filter((pick) => pick === 'a').length;
    expect(picks).not.toContain('never');
    expect(a / picks.length).toBeGreaterThan(0.7);
    expect(a / picks.length).toBeLessThan(0.8);
  });

  test('shuffle keeps the elements; pick refuses an empty list', () => {
    const rng = createRng('shuffle');
    expect(rng.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(() => rng.pick([])).toThrow(/empty/);
  });
});
