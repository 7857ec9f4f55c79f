import type { ClickHouse } from './client.js';

export interface CoalescedInsertsOptions {
  /** How long the first rows for a table wait for others before the INSERT goes out. */
  lingerMs: number;
}

interface PendingTable {
  rows: Record<string, unknown>[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * The same client, except that inserts into one table that start within `lingerMs` of each other
 * go out as one INSERT: one part instead of one per caller for ClickHouse to merge. For writers
 * whose concurrent tasks each store a little at about the same time (reference-data folds every
 * chain at once and each writes its prices). Every caller's promise settles with the INSERT that
 * carried its rows, so a caller that awaits one insert before the next keeps its order.
 */
export function coalescedInserts(clickhouse: ClickHouse, options: CoalescedInsertsOptions): ClickHouse {
  const pending = new Map<string, PendingTable>();

  async function send(table: string): Promise<void> {
    const batch = pending.get(table)!;
    pending.delete(table);
    try {
      await clickhouse.insert(table, batch.rows);
      for (const waiter of batch.waiters) waiter.resolve();
    } catch (error) {
      for (const waiter of batch.waiters) waiter.reject(error);
    }
  }

  return {
    ...clickhouse,
    insert(table, rows) {
      if (rows.length === 0) return Promise.resolve();
      let batch = pending.get(table);
      if (!batch) {
        pending.set(table, (batch = { rows: [], waiters: [] }));
        setTimeout(() => void send(table), options.lingerMs);
      }
      for (const row of rows) batch.rows.push(row);
      return new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    },
  };
}
