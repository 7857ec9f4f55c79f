import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClickHouse, identifier, migrationStatement, sql, type ClickHouse } from '../clickhouse/index.js';
import { testConfig } from './test-config.js';

const migrationsDir = new URL('../../../../infra/clickhouse/migrations/', import.meta.url).pathname;

/** The statements of one migration file: comments dropped, split on the `;` that ends each. */
export function migrationStatements(fileText: string): string[] {
  return fileText
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((statement) => statement.trim())
    .filter(Boolean);
}

export interface ClickHouseDatabase {
  clickhouse: ClickHouse;
  database: string;
  drop(): Promise<void>;
}

/**
 * A fresh database with every migration applied, for a suite that must see only its own rows
 * (the shared test database also holds what other suites wrote).
 */
export async function setupClickHouseDatabase(database: string): Promise<ClickHouseDatabase> {
  const config = testConfig();
  const options = { url: config.CLICKHOUSE_URL, username: config.CLICKHOUSE_USER, password: config.CLICKHOUSE_PASSWORD };
  const admin = createClickHouse({ ...options, database: 'default' });
  await admin.command(sql`CREATE DATABASE IF NOT EXISTS ${identifier(database)}`);
  const clickhouse = createClickHouse({ ...options, database });
  for (const file of (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort()) {
    for (const statement of migrationStatements(await readFile(join(migrationsDir, file), 'utf8'))) await clickhouse.command(migrationStatement(statement));
  }
  return {
    clickhouse,
    database,
    async drop() {
      await clickhouse.close();
      await admin.command(sql`DROP DATABASE IF EXISTS ${identifier(database)}`);
      await admin.close();
    },
  };
}
