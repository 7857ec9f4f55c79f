import { identifier, sql, type ClickHouse } from '../src/clickhouse/index.js';
import { setupClickHouse, uniqueName } from '../src/testing/index.js';

const hostile = [
  "'",
  "\\'",
  '\\',
  'a\\',
  "'; DROP TABLE {table}; --",
  "x'); DROP TABLE {table}; SELECT ('",
  'nul\0inside',
  '\0',
  'all controls \x01\x02\x1b\x7f\b\f\n\r\t',
  '"double" `back` quotes',
  '\\x27 literally',
  "\\\\' ; SELECT 1",
  'unicode 🦊 ü 中文 \u2028',
  '/* comment */ -- trailing',
  '',
];

describe('ClickHouse value binding against the real server', () => {
  let clickhouse: ClickHouse;
  const table = uniqueName('binding_test');

  beforeAll(async () => {
    clickhouse = setupClickHouse();
    await clickhouse.command(sql`CREATE TABLE ${identifier(table)} (id UInt32, value String) ENGINE = MergeTree ORDER BY id`);
  });

  afterAll(async () => {
    await clickhouse.command(sql`DROP TABLE IF EXISTS ${identifier(table)}`);
    await clickhouse.close();
  });

  test('hostile strings round-trip exactly through INSERT and SELECT, and nothing else executes', async () => {
    const values = hostile.map((value) => value.replace('{table}', table));
    for (const [id, value] of values.entries()) {
      await clickhouse.command(sql`INSERT INTO ${identifier(table)} (id, value) VALUES (${id}, ${value})`);
    }
    const rows = await clickhouse.query<{ id: number; value: string }>(sql`SELECT id, value FROM ${identifier(table)} ORDER BY id`);
    expect(rows.map((row) => row.value)).toEqual(values);

    for (const value of values) {
      const matches = await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM ${identifier(table)} WHERE value = ${value}`);
      expect(Number(matches[0]!.n)).toBe(1);
    }
    const tables = await clickhouse.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = currentDatabase() AND name = ${table}`);
    expect(tables).toHaveLength(1);
  });

  test('numbers, big integers, arrays and dates bind to their exact values', async () => {
    const [row] = await clickhouse.query<Record<string, unknown>>(
      sql`SELECT toString(${18446744073709551615n}) AS big, toString(${-9223372036854775807n}) AS negative, toString(${-0.5}) AS half, ${['a', "b'c"]} AS arr, toUnixTimestamp(${new Date(1_700_000_000_000)}) AS ts`,
    );
    expect(row!.big).toBe('18446744073709551615');
    expect(row!.negative).toBe('-9223372036854775807');
    expect(row!.half).toBe('-0.5');
    expect(row!.arr).toEqual(['a', "b'c"]);
    expect(Number(row!.ts)).toBe(1_700_000_000);
  });
});
