import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { clickHouseQueryDuration, secondsSince } from '../metrics/platform-metrics.js';
import { identifier, type SqlFragment } from './sql.js';

export interface ClickHouse {
  query<Row>(query: SqlFragment): Promise<Row[]>;
  /** The rows as ClickHouse sends them, a batch at a time: an answer too large to hold at once. */
  stream<Row>(query: SqlFragment): AsyncIterable<Row[]>;
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

/** Runs one round trip, recording its latency (until the whole answer is read) and outcome. */
async function timed<T>(operation: 'query' | 'command' | 'insert', run: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  let outcome = 'error';
  try {
    const result = await run();
    outcome = 'ok';
    return result;
  } finally {
    clickHouseQueryDuration.observe({ operation, outcome }, secondsSince(started));
  }
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
    query<Row>(query: SqlFragment) {
      return timed('query', async () => (await client.query({ query: query.text, format: 'JSONEachRow' })).json<Row>());
    },
    async *stream<Row>(query: SqlFragment) {
      const started = process.hrtime.bigint();
      let outcome = 'error';
      try {
        const result = await client.query({ query: query.text, format: 'JSONEachRow' });
        for await (const rows of result.stream<Row>()) yield rows.map((row) => row.json<Row>());
        outcome = 'ok';
      } finally {
        clickHouseQueryDuration.observe({ operation: 'query', outcome }, secondsSince(started));
      }
    },
    async command(query: SqlFragment) {
      await timed('command', () => client.command({ query: query.text }));
    },
    async insert(table, rows) {
      if (rows.length === 0) return;
      identifier(table);
      await timed('insert', () => client.insert({ table, values: [...rows], format: 'JSONEachRow' }));
    },
    async ping() {
      return (await client.ping()).success;
    },
    close: () => client.close(),
  };
}
