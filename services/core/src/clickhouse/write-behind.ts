import type { Logger } from 'pino';
import type { ClickHouse } from './client.js';

type Rows = Record<string, Record<string, unknown>>;

export interface WriteBehindOptions<Tables extends Rows> {
  clickhouse: Pick<ClickHouse, 'insert'>;
  logger: Logger;
  /**
   * Every table, in the order each round of INSERTs stores them: a row that promises others
   * (a day mark its day's prices, a stored event its prices) comes in a later table than they.
   */
  tables: readonly (keyof Tables & string)[];
  /** Per table, the key under which readers look its rows up while they wait (`waitingFor`). */
  keys?: { [Table in keyof Tables]?: (row: Tables[Table]) => string };
  /** The oldest row waits at most this long for its INSERT; 0 stores every `add` before it returns. */
  storeEveryMs: number;
  /** At this many waiting rows the INSERTs go out at once and `add` waits until they succeeded (memory stays bounded). */
  maxRows?: number;
  /**
   * An `add` of this many rows or more goes out at once with what waits, without waiting for it:
   * it is the large INSERT ClickHouse wants already (a backlog after a start), and readers need
   * not carry it in memory.
   */
  storeAtOnceFrom?: number;
  /** After a failed INSERT, the next try comes this much later (never later than `storeEveryMs`). */
  retryMs?: number;
  /**
   * Called with a round's rows, per table, once they are in ClickHouse, in the same turn as they
   * leave memory: a reader's cache of what the tables held lacks them from then on (until then
   * they are still found waiting), and can take them in or be dropped.
   */
  onStored?: (stored: { [Table in keyof Tables]?: readonly Tables[Table][] }) => void;
}

/** Rows handed over: they are readable now, and stored once `durable` resolves. */
export interface Accepted {
  durable: Promise<void>;
}

export interface WriteBehind<Tables extends Rows> {
  add<Table extends keyof Tables & string>(table: Table, rows: readonly Tables[Table][]): Promise<Accepted>;
  /** A table's rows under this key that are not stored yet (those of an INSERT in flight included). */
  waitingFor<Table extends keyof Tables & string>(table: Table, key: string): readonly Tables[Table][];
  /** Every waiting row of a table. */
  waitingIn<Table extends keyof Tables & string>(table: Table): readonly Tables[Table][];
  /** Resolves once every row added so far is stored. */
  settled(): Promise<void>;
  /** Stores what waits now, for a read or write that must come after it; resolves once it is stored. */
  flush(): Promise<void>;
  /** Stores what waits and from then on stores each `add` at once; resolves once everything is stored. */
  close(): Promise<void>;
}

interface Batch {
  rows: Map<string, Record<string, unknown>[]>;
  byKey: Map<string, Map<string, Record<string, unknown>[]>>;
  count: number;
  settle: { resolve(): void; reject(error: unknown): void };
  durable: Promise<void>;
}

/**
 * Rows that readers must see at once but that ClickHouse wants in few, large INSERTs: ClickHouse
 * 18.16 rewrites a partition's youngest part (up to 5 MB) with every few new parts, so a table
 * stored every second rewrites each of its rows a hundred times and more. Rows wait here, readable
 * by key, for up to `storeEveryMs`, and go out together, one INSERT per table; they leave memory
 * only once the round that carried them succeeded, so a reader sees them in memory, in ClickHouse,
 * or in both (readers fold duplicates by their ReplacingMergeTree key anyway).
 *
 * Nothing is durable before `durable` resolves: a Kafka consumer commits offsets only then, so a
 * crash loses what waited here and the broker hands it over again. A failed round keeps its rows
 * and is tried again whole (rows stored by its earlier INSERTs come again and fold away);
 * `durable` rejects only when the final round of `close` fails.
 */
export function createWriteBehind<Tables extends Rows>(options: WriteBehindOptions<Tables>): WriteBehind<Tables> {
  const { clickhouse, logger } = options;
  const maxRows = options.maxRows ?? 50_000;
  const storeAtOnceFrom = options.storeAtOnceFrom ?? 1_000;
  const retryMs = Math.min(options.retryMs ?? 1_000, Math.max(options.storeEveryMs, 100));
  /** Oldest first; a round takes every batch present when it starts and removes them once stored. */
  const batches: Batch[] = [];
  let waitingRows = 0;
  let timer: NodeJS.Timeout | undefined;
  let storing: Promise<void> = Promise.resolve();
  let closed = false;

  function openBatch(): Batch {
    let settle!: Batch['settle'];
    const durable = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // A batch whose caller never asks for `durable` must not become an unhandled rejection.
    durable.catch(() => undefined);
    const batch: Batch = { rows: new Map(), byKey: new Map(), count: 0, settle, durable };
    batches.push(batch);
    return batch;
  }

  async function storeWaiting(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const taken = batches.length;
    if (taken === 0) return;
    // Rows added while the round runs go to a batch of their own, for the next round.
    openBatch();
    const round = batches.slice(0, taken);
    const count = round.reduce((sum, batch) => sum + batch.count, 0);
    const stored: { [Table in keyof Tables]?: Tables[Table][] } = {};
    try {
      for (const table of options.tables) {
        const rows = round.flatMap((batch) => batch.rows.get(table) ?? []) as Tables[typeof table][];
        if (rows.length === 0) continue;
        await clickhouse.insert(table, rows);
        stored[table] = rows;
      }
    } catch (error) {
      if (closed) {
        for (const batch of batches.splice(0, taken)) batch.settle.reject(error);
        waitingRows -= count;
        throw error;
      }
      logger.error({ err: error, tables: options.tables, rows: count }, 'storing rows failed; they stay readable and are tried again');
      schedule(retryMs);
      return;
    }
    options.onStored?.(stored);
    for (const batch of batches.splice(0, taken)) batch.settle.resolve();
    waitingRows -= count;
    // Rows that came during the round wait their own full delay from now at most.
    if (waitingRows > 0) schedule(options.storeEveryMs);
  }

  /** One round at a time, in order, so `durable` resolves in the order rows came. */
  function store(): Promise<void> {
    const run = storing.then(storeWaiting);
    storing = run.catch(() => undefined);
    return run;
  }

  function schedule(delayMs: number): void {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void store().catch(() => undefined);
    }, delayMs);
  }

  /** Resolved once every row added so far is stored: rounds store batches in order, so the newest one with rows settles last. */
  const newestDurable = () => batches.findLast((batch) => batch.count > 0)?.durable ?? Promise.resolve();

  return {
    async add(table, rows) {
      if (rows.length === 0) return { durable: newestDurable() };
      const last = batches.at(-1);
      const batch = last && last.count + rows.length <= maxRows ? last : openBatch();
      const keyOf = options.keys?.[table];
      let listed = batch.rows.get(table);
      if (!listed) batch.rows.set(table, (listed = []));
      let byKey = batch.byKey.get(table);
      if (keyOf && !byKey) batch.byKey.set(table, (byKey = new Map()));
      for (const row of rows) {
        listed.push(row);
        if (!keyOf || !byKey) continue;
        const key = keyOf(row);
        const keyed = byKey.get(key);
        if (keyed) keyed.push(row);
        else byKey.set(key, [row]);
      }
      batch.count += rows.length;
      waitingRows += rows.length;
      if (closed || options.storeEveryMs === 0 || waitingRows >= maxRows) {
        // The caller waits until the rows are stored: while ClickHouse refuses them, no more come.
        void store().catch(() => undefined);
        await batch.durable;
      } else if (rows.length >= storeAtOnceFrom) {
        void store().catch(() => undefined);
      } else {
        schedule(options.storeEveryMs);
      }
      return { durable: batch.durable };
    },

    waitingFor(table, key) {
      return batches.flatMap((batch) => (batch.byKey.get(table)?.get(key) ?? []) as Tables[typeof table][]);
    },

    waitingIn(table) {
      return batches.flatMap((batch) => (batch.rows.get(table) ?? []) as Tables[typeof table][]);
    },

    settled: () => newestDurable(),

    async flush() {
      if (waitingRows === 0) return;
      const durable = newestDurable();
      void store().catch(() => undefined);
      await durable;
    },

    async close() {
      closed = true;
      await store();
    },
  };
}
