import { createWriteBehind, identifier, sql, type ClickHouse } from '../src/clickhouse/index.js';
import { setupClickHouse, testLogger, uniqueName } from '../src/testing/index.js';

type Row = { wallet: string; n: number };
type Tables = Record<string, Row>;

describe('write-behind rows against the real server', () => {
  let clickhouse: ClickHouse;
  const tables: string[] = [];

  const newTable = async (create = true) => {
    const table = uniqueName('write_behind_test');
    tables.push(table);
    if (create) await clickhouse.command(sql`CREATE TABLE ${identifier(table)} (wallet String, n UInt32) ENGINE = MergeTree ORDER BY (wallet, n)`);
    return table;
  };
  const stored = async (table: string) =>
    (await clickhouse.query<{ wallet: string; n: number }>(sql`SELECT wallet, n FROM ${identifier(table)} ORDER BY wallet, n`)).map((row) => ({
      wallet: row.wallet,
      n: Number(row.n),
    }));
  const parts = async (table: string) =>
    Number(
      (
        await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = ${table} AND level = 0`)
      )[0]!.n,
    );

  beforeAll(() => {
    clickhouse = setupClickHouse();
  });

  afterAll(async () => {
    for (const table of tables) await clickhouse.command(sql`DROP TABLE IF EXISTS ${identifier(table)}`);
    await clickhouse.close();
  });

  test('rows are readable by key at once and stored together after the delay, in one part; then they leave memory', async () => {
    const table = await newTable();
    // What onStored is handed, and whether the rows were still waiting when it was called.
    const rounds: { stored: unknown; waitingThen: number }[] = [];
    const rows = createWriteBehind<Tables>({
      clickhouse,
      tables: [table],
      logger: testLogger,
      storeEveryMs: 1_500,
      keys: { [table]: (row) => row.wallet },
      onStored: (stored) => rounds.push({ stored, waitingThen: rows.waitingFor(table, 'a').length }),
    });
    const first = await rows.add(table, [
      { wallet: 'a', n: 1 },
      { wallet: 'b', n: 1 },
    ]);
    const second = await rows.add(table, [{ wallet: 'a', n: 2 }]);
    expect(rows.waitingFor(table, 'a')).toEqual([
      { wallet: 'a', n: 1 },
      { wallet: 'a', n: 2 },
    ]);
    expect(rows.waitingFor(table, 'c')).toEqual([]);
    expect(await stored(table)).toEqual([]);

    await Promise.all([first.durable, second.durable]);
    expect(await stored(table)).toEqual([
      { wallet: 'a', n: 1 },
      { wallet: 'a', n: 2 },
      { wallet: 'b', n: 1 },
    ]);
    expect(await parts(table)).toBe(1);
    expect(rows.waitingFor(table, 'a')).toEqual([]);
    // One round, handed its rows while they were still readable in memory.
    expect(rounds).toEqual([
      {
        stored: {
          [table]: [
            { wallet: 'a', n: 1 },
            { wallet: 'b', n: 1 },
            { wallet: 'a', n: 2 },
          ],
        },
        waitingThen: 2,
      },
    ]);
    await rows.close();
  });

  test('a refused INSERT keeps its rows readable and is tried again until it is stored', async () => {
    // The table does not exist yet: every INSERT fails until it is created.
    const table = await newTable(false);
    const rows = createWriteBehind<Tables>({
      clickhouse,
      tables: [table],
      logger: testLogger,
      storeEveryMs: 200,
      retryMs: 200,
      keys: { [table]: (row) => row.wallet },
    });
    const accepted = await rows.add(table, [{ wallet: 'a', n: 7 }]);
    let durable = false;
    void accepted.durable.then(() => (durable = true));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(durable).toBe(false);
    expect(rows.waitingFor(table, 'a')).toEqual([{ wallet: 'a', n: 7 }]);

    await clickhouse.command(sql`CREATE TABLE ${identifier(table)} (wallet String, n UInt32) ENGINE = MergeTree ORDER BY (wallet, n)`);
    await accepted.durable;
    expect(await stored(table)).toEqual([{ wallet: 'a', n: 7 }]);
    expect(rows.waitingFor(table, 'a')).toEqual([]);
    await rows.close();
  });

  test('a round stores the tables in their order: a later table never gets rows before an earlier one has them', async () => {
    const first = await newTable(false);
    const second = await newTable();
    const rows = createWriteBehind<Tables>({ clickhouse, tables: [first, second], logger: testLogger, storeEveryMs: 100, retryMs: 100 });
    const accepted = await rows.add(second, [{ wallet: 'late', n: 1 }]);
    await rows.add(first, [{ wallet: 'early', n: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The first table refuses every INSERT (it does not exist yet), so the second gets nothing.
    expect(await stored(second)).toEqual([]);
    await clickhouse.command(sql`CREATE TABLE ${identifier(first)} (wallet String, n UInt32) ENGINE = MergeTree ORDER BY (wallet, n)`);
    await accepted.durable;
    expect(await stored(first)).toEqual([{ wallet: 'early', n: 1 }]);
    expect(await stored(second)).toEqual([{ wallet: 'late', n: 1 }]);
    await rows.close();
  });

  test('flush stores what waits now; settled resolves once everything added so far is stored', async () => {
    const table = await newTable();
    const rows = createWriteBehind<Tables>({ clickhouse, tables: [table], logger: testLogger, storeEveryMs: 3_600_000 });
    await rows.settled();
    await rows.add(table, [{ wallet: 'a', n: 1 }]);
    let settled = false;
    void rows.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    await rows.flush();
    expect(await stored(table)).toEqual([{ wallet: 'a', n: 1 }]);
    await rows.settled();
    expect(settled).toBe(true);
    await rows.close();
  });

  test('a large add goes out at once with what waits, without the caller waiting for it', async () => {
    const table = await newTable();
    const rows = createWriteBehind<Tables>({ clickhouse, tables: [table], logger: testLogger, storeEveryMs: 3_600_000, storeAtOnceFrom: 3 });
    await rows.add(table, [{ wallet: 'a', n: 1 }]);
    const large = await rows.add(table, [
      { wallet: 'b', n: 1 },
      { wallet: 'b', n: 2 },
      { wallet: 'b', n: 3 },
    ]);
    await large.durable;
    expect(await stored(table)).toHaveLength(4);
    await rows.close();
  });

  test('close stores what waits at once, and every later add is stored before it returns', async () => {
    const table = await newTable();
    const rows = createWriteBehind<Tables>({
      clickhouse,
      tables: [table],
      logger: testLogger,
      storeEveryMs: 3_600_000,
      keys: { [table]: (row) => row.wallet },
    });
    await rows.add(table, [{ wallet: 'a', n: 1 }]);
    await rows.close();
    expect(await stored(table)).toEqual([{ wallet: 'a', n: 1 }]);
    await rows.add(table, [{ wallet: 'a', n: 2 }]);
    expect(await stored(table)).toEqual([
      { wallet: 'a', n: 1 },
      { wallet: 'a', n: 2 },
    ]);
  });

  test('at maxRows the INSERT goes out at once and add waits for it; a write-through instance stores every add', async () => {
    const table = await newTable();
    const bounded = createWriteBehind<Tables>({
      clickhouse,
      tables: [table],
      logger: testLogger,
      storeEveryMs: 3_600_000,
      maxRows: 3,
      keys: { [table]: (row) => row.wallet },
    });
    await bounded.add(table, [
      { wallet: 'a', n: 1 },
      { wallet: 'a', n: 2 },
    ]);
    expect(await stored(table)).toEqual([]);
    await bounded.add(table, [{ wallet: 'b', n: 1 }]);
    expect(await stored(table)).toHaveLength(3);

    const through = createWriteBehind<Tables>({ clickhouse, tables: [table], logger: testLogger, storeEveryMs: 0, keys: { [table]: (row) => row.wallet } });
    await through.add(table, [{ wallet: 'c', n: 1 }]);
    expect(await stored(table)).toHaveLength(4);
    await Promise.all([bounded.close(), through.close()]);
  });

  test('a failed final INSERT at close rejects `durable`, and its rows leave memory (Kafka hands them over again)', async () => {
    const table = await newTable(false);
    const rows = createWriteBehind<Tables>({
      clickhouse,
      tables: [table],
      logger: testLogger,
      storeEveryMs: 3_600_000,
      keys: { [table]: (row) => row.wallet },
    });
    const accepted = await rows.add(table, [{ wallet: 'a', n: 1 }]);
    await expect(rows.close()).rejects.toThrow();
    await expect(accepted.durable).rejects.toThrow();
    expect(rows.waitingFor(table, 'a')).toEqual([]);
  });
});
