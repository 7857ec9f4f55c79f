import { compareShape } from './json-shape.js';
import { formatRyu, stringifyJson, f64 } from './json.js';

describe('compareShape', () => {
  it.each([
    { name: 'same shape, other values', expected: { a: 1, b: ['x'], c: { d: null } }, actual: { a: 7, b: ['y', 'z'], c: { d: null } }, problems: [] },
    { name: 'wrong type', expected: { a: 1 }, actual: { a: '1' }, problems: ['a: expected number, got string'] },
    { name: 'missing key', expected: { a: 1, b: 2 }, actual: { a: 1 }, problems: ['b: missing'] },
    { name: 'extra key', expected: { a: 1 }, actual: { a: 1, z: 2 }, problems: ['z: not in the example'] },
    { name: 'nested array element', expected: { v: [{ k: 'x' }] }, actual: { v: [{ k: 'x' }, { k: 3 }] }, problems: ['v[].k: expected string, got number'] },
    { name: 'empty where elements are expected', expected: [1], actual: [], problems: ["(root): expected elements like the example's, got an empty array"] },
    { name: 'mixed array compared by position', expected: [{ s: 1 }, null], actual: [null, null], problems: ['[]: expected object, got null'] },
    { name: 'null where a value is documented', expected: { t: 5 }, actual: { t: null }, problems: ['t: expected number, got null'] },
  ])('$name', ({ expected, actual, problems }) => {
    expect(compareShape(expected, actual)).toEqual(problems);
  });

  it('accepts listed extra keys and nullable paths only', () => {
    const options = { extraKeys: { 'r.extra': 'documented elsewhere' }, nullable: ['r.time'] };
    expect(compareShape({ r: { time: null } }, { r: { time: 1, extra: true } }, options)).toEqual([]);
    expect(compareShape({ r: { time: null } }, { r: { time: 1, other: true } }, options)).toEqual(['r.other: not in the example']);
  });
});

describe('JSON as serde_json writes it', () => {
  it.each([
    [1, '1.0'],
    [0.01, '0.01'],
    [98.64, '98.64'],
    [420000000, '420000000.0'],
    [1e-7, '1e-7'],
    [0.0001, '0.0001'],
    [1e16, '1e16'],
    [1234567890123456, '1234567890123456.0'],
    [1.5e17, '1.5e17'],
    [0, '0.0'],
  ])('writes the f64 %p as %s', (value, text) => {
    expect(formatRyu(value)).toBe(text);
  });

  it('writes u64 beyond 2^53 exactly and leaves out undefined members', () => {
    expect(stringifyJson({ rentEpoch: 18_446_744_073_709_551_615n, skipped: undefined, ui: f64(2), list: [1n, null] })).toBe(
      '{"rentEpoch":18446744073709551615,"ui":2.0,"list":[1,null]}',
    );
  });
});
