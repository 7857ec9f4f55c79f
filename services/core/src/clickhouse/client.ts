import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { identifier, type SqlFragment } from './sql.js';

export interface ClickHouse {
  query<Row>(query: SqlFragment): Promise<Row[]>;
  command(query: SqlFragment): Promise<void>;
  insert<Row extends Record<string, unknown>>(table: string, rows: readonly Row[]): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ClickHouseOptions {
  url: string;
  database: string;
  username?: string;
  password?: string;
}

/** Accepts only `SqlFragment`s, so a query built by pasting strings does not type-check. */
export function createClickHouse(options: ClickHouseOptions): ClickHouse {
  const client: ClickHouseClient = createClient({
    url: options.url,
    database: options.database,
    username: options.username ?? 'default',
    password: options.password ?? '',
    // 18.16 rejects settings it does not know, and the client sends none unless asked.
    clickhouse_settings: {},
  });
  return {
    async query<Row>(query: SqlFragment) {
      const result = await client.query({ query: query.text, format: 'JSONEachRow' });
      return result.json<Row>();
    },
    async command(query: SqlFragment) {
      await client.command({ query: query.text });
    },
    async insert(table, rows) {
      if (rows.length === 0) return;
      identifier(table);
      await client.insert({ table, values: [...rows], format: 'JSONEachRow' });
    },
    async ping() {
      return (await client.ping()).success;
    },
    close: () => client.close(),
  };
}
