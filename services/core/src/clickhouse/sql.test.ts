import { escapeString, identifier, join, literal, sql } from './sql.js';

describe('literal', () => {
  test.each([
    ['plain', "'plain'"],
    ["it's", "'it\\'s'"],
    ['back\\slash', "'back\\\\slash'"],
    ['nul\0byte', "'nul\\x00byte'"],
    ['line\nbreak\ttab\r', "'line\\x0abreak\\x09tab\\x0d'"],
    ['\x7f', "'\\x7f'"],
    ['emoji 🦊 ü', "'emoji 🦊 ü'"],
    ["\\'", "'\\\\\\''"],
  ])('string %j', (input, expected) => {
    expect(escapeString(input)).toBe(expected);
  });

  test.each([
    [0, '0'],
    [-0, '0'],
    [-12.5, '-12.5'],
    [1e21, '1e+21'],
    [123456789012345678901234567890n, '123456789012345678901234567890'],
    [-5n, '-5'],
    [true, '1'],
    [false, '0'],
    [null, 'NULL'],
    [new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 999)), 'toDateTime(1704164645)'],
    [['a', 1, null], "['a', 1, NULL]"],
  ] as const)('%p', (input, expected) => {
    expect(literal(input as never)).toBe(expected);
  });

  test.each([NaN, Infinity, -Infinity])('refuses %p', (value) => {
    expect(() => literal(value)).toThrow(/non-finite/);
  });

  test('refuses invalid dates and unsupported types', () => {
    expect(() => literal(new Date('nope'))).toThrow(/invalid Date/);
    expect(() => literal(undefined as never)).toThrow(/undefined/);
    expect(() => literal({ a: 1 } as never)).toThrow();
  });
});

describe('identifier', () => {
  test('quotes plain identifiers', () => {
    expect(identifier('wallet_transactions').text).toBe('`wallet_transactions`');
  });
  test.each(['', '1abc', 'a-b', 'a`b', 'a b', 't; DROP TABLE x', 'ä'])('refuses %j', (name) => {
    expect(() => identifier(name)).toThrow(/invalid SQL identifier/);
  });
});

describe('sql', () => {
  test('renders values as literals and fragments verbatim', () => {
    const table = identifier('t');
    const conditions = join([sql`a = ${"x'y"}`, sql`b IN ${[1, 2]}`], ' AND ');
    expect(sql`SELECT * FROM ${table} WHERE ${conditions} LIMIT ${10}`.text).toBe("SELECT * FROM `t` WHERE a = 'x\\'y' AND b IN [1, 2] LIMIT 10");
  });
});
