import type { Logger } from 'pino';
import type { ClickHouse } from './client.js';

export interface WriteBehindOptions<Row> {
  clickhouse: Pick<ClickHouse, 'insert'>;
  table: string;
  logger: Logger;
  /** The oldest row waits at most this long for its INSERT; 0 stores every `add` before it returns. */
  storeEveryMs: number;
  /** At this many waiting rows the INSERT goes out at once and `add` waits until it succeeded (memory stays bounded). */
  maxRows?: number;
  /** The key under which readers look rows up while they wait (`waitingFor`). */
  keyOf(row: Row): string;
  /** After a failed INSERT, the next try comes this much later (never later than `storeEveryMs`). */
  retryMs?: number;
}

/** Rows handed over: they are readable now, and stored once `durable` resolves. */
export interface Accepted {
  durable: Promise<void>;
}

export interface WriteBehind<Row> {
  add(rows: readonly Row[]): Promise<Accepted>;
  /** Rows under this key that are not stored yet (those of an INSERT in flight included). */
  waitingFor(key: string): readonly Row[];
  /** Stores what waits now, for a write that must land after it; resolves once it is stored. */
  flush(): Promise<void>;
  /** Stores what waits and from then on stores each `add` at once; resolves once everything is stored. */
  close(): Promise<void>;
}

interface Batch<Row> {
  byKey: Map<string, Row[]>;
  rows: Row[];
  settle: { resolve(): void; reject(error: unknown): void };
  durable: Promise<void>;
}

/**
 * Rows that readers must see at once but that ClickHouse wants in few, large INSERTs: ClickHouse
 * 18.16 merges each small INSERT into the partition's youngest part straight away, so a table
 * stored every second rewrites each of its rows a hundred times and more. Rows wait here, readable
 * by key, for up to `storeEveryMs`, and go out together; they leave memory only once the INSERT
 * that carried them succeeded, so a reader sees them in memory, in ClickHouse, or in both (readers
 * fold duplicates by their ReplacingMergeTree key anyway).
 *
 * Nothing is durable before `durable` resolves: a Kafka consumer commits offsets only then, so a
 * crash loses what waited here and the broker hands it over again. A failed INSERT keeps its rows
 * and is tried again; `durable` rejects only when the final INSERT of `close` fails.
 */
export function createWriteBehind<Row extends Record<string, unknown>>(options: WriteBehindOptions<Row>): WriteBehind<Row> {
  const { clickhouse, table, logger, keyOf } = options;
  const maxRows = options.maxRows ?? 50_000;
  const retryMs = Math.min(options.retryMs ?? 1_000, Math.max(options.storeEveryMs, 100));
  /** Oldest first; an INSERT takes every batch present when it starts and removes them once stored. */
  const batches: Batch<Row>[] = [];
  let waitingRows = 0;
  let timer: NodeJS.Timeout | undefined;
  let storing: Promise<void> = Promise.resolve();
  let closed = false;

  function openBatch(): Batch<Row> {
    let settle!: Batch<Row>['settle'];
    const durable = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // A batch whose caller never asks for `durable` must not become an unhandled rejection.
    durable.catch(() => undefined);
    const batch: Batch<Row> = { byKey: new Map(), rows: [], settle, durable };
    batches.push(batch);
    return batch;
  }

  async function storeWaiting(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const taken = batches.length;
    if (taken === 0) return;
    // Rows added while the INSERT runs go to a batch of their own, for the next INSERT.
    openBatch();
    const rows = batches.slice(0, taken).flatMap((batch) => batch.rows);
    try {
      await clickhouse.insert(table, rows);
    } catch (error) {
      if (closed) {
        for (const batch of batches.splice(0, taken)) batch.settle.reject(error);
        waitingRows -= rows.length;
        throw error;
      }
      logger.error({ err: error, table, rows: rows.length }, 'storing rows failed; they stay readable and are tried again');
      schedule(retryMs);
      return;
    }
    for (const batch of batches.splice(0, taken)) batch.settle.resolve();
    waitingRows -= rows.length;
    // Rows that came during the INSERT wait their own full delay from now at most.
    if (waitingRows > 0) schedule(options.storeEveryMs);
  }

  /** One INSERT at a time, in order, so `durable` resolves in the order rows came. */
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

  return {
    async add(rows) {
      if (rows.length === 0) return { durable: Promise.resolve() };
      const last = batches.at(-1);
      const batch = last && last.rows.length + rows.length <= maxRows ? last : openBatch();
      for (const row of rows) {
        const key = keyOf(row);
        const listed = batch.byKey.get(key);
        if (listed) listed.push(row);
        else batch.byKey.set(key, [row]);
        batch.rows.push(row);
      }
      waitingRows += rows.length;
      if (closed || options.storeEveryMs === 0 || waitingRows >= maxRows) {
        // The caller waits until the rows are stored: while ClickHouse refuses them, no more come.
        void store().catch(() => undefined);
        await batch.durable;
      } else {
        schedule(options.storeEveryMs);
      }
      return { durable: batch.durable };
    },

    waitingFor(key) {
      return batches.flatMap((batch) => batch.byKey.get(key) ?? []);
    },

    async flush() {
      const newest = batches.at(-1);
      if (!newest || waitingRows === 0) return;
      void store().catch(() => undefined);
      await newest.durable;
    },

    async close() {
      closed = true;
      await store();
    },
  };
}
