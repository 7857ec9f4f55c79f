import { coalescedInserts, identifier, sql, type ClickHouse } from '../src/clickhouse/index.js';
import { setupClickHouse, uniqueName } from '../src/testing/index.js';

describe('coalesced inserts against the real server', () => {
  let clickhouse: ClickHouse;
  const table = uniqueName('coalesce_test');

  beforeAll(async () => {
    clickhouse = setupClickHouse();
    await clickhouse.command(sql`CREATE TABLE ${identifier(table)} (caller UInt32, n UInt32) ENGINE = MergeTree ORDER BY (caller, n)`);
  });

  afterAll(async () => {
    await clickhouse.command(sql`DROP TABLE IF EXISTS ${identifier(table)}`);
    await clickhouse.close();
  });

  const parts = async () =>
    Number((await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = ${table} AND level = 0`))[0]!.n);

  test('concurrent callers within the linger share one INSERT (one part); each resolves only once its rows are stored', async () => {
    const coalesced = coalescedInserts(clickhouse, { lingerMs: 50 });
    const stored: number[] = [];
    await Promise.all(
      [1, 2, 3].map(async (caller) => {
        await coalesced.insert(table, Array.from({ length: 100 }, (_, n) => ({ caller, n })));
        const [row] = await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM ${identifier(table)} WHERE caller = ${caller}`);
        stored.push(Number(row!.n));
      }),
    );
    expect(stored).toEqual([100, 100, 100]);
    expect(await parts()).toBe(1);

    // A caller after the linger has passed goes out in an INSERT of its own.
    await coalesced.insert(table, [{ caller: 4, n: 0 }]);
    expect(await parts()).toBe(2);
  });

  test('a failed INSERT rejects every caller whose rows it carried', async () => {
    const coalesced = coalescedInserts(clickhouse, { lingerMs: 20 });
    const missing = uniqueName('no_such_table');
    const outcomes = await Promise.allSettled([coalesced.insert(missing, [{ a: 1 }]), coalesced.insert(missing, [{ a: 2 }])]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    // Other tables are not held up by the failure.
    await coalesced.insert(table, [{ caller: 5, n: 0 }]);
    const [row] = await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM ${identifier(table)} WHERE caller = 5`);
    expect(row!.n).toBe('1');
  });
});
