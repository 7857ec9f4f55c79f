import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { createPrisma, type PrismaClient } from '../db/index.js';
import { testConfig } from './test-config.js';

const migrationsDir = new URL('../../prisma/migrations/', import.meta.url).pathname;

export interface PostgresDatabase {
  /** Connection string of the database, for a process of the suite's own. */
  url: string;
  prisma: PrismaClient;
  drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database with every Prisma migration applied, for a suite whose rows are keyed
 * like another suite's (chain ids, block hashes of the same devnet world) and must not meet them.
 */
export async function setupPostgresDatabase(database: string): Promise<PostgresDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`database name ${database} is not a plain lowercase identifier`);
  const server = new URL(testConfig().DATABASE_URL);
  // An administrative connection per statement, none held meanwhile: a suite that stops the server
  // (the infrastructure outage suite) would otherwise get an idle client's unhandled 'error'.
  const asAdmin = async (statement: string) => {
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await asAdmin(`CREATE DATABASE ${database}`);
  const url = new URL(server);
  url.pathname = `/${database}`;
  const migrator = new pg.Client({ connectionString: url.toString() });
  await migrator.connect();
  try {
    const migrations = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const migration of migrations) await migrator.query(await readFile(join(migrationsDir, migration, 'migration.sql'), 'utf8'));
  } finally {
    await migrator.end();
  }
  const prisma = createPrisma(url.toString());
  return {
    url: url.toString(),
    prisma,
    async drop() {
      await prisma.$disconnect();
      await asAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}
