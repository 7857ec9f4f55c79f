// Prisma 6.19 CLI configuration for offline migrations of services/core/prisma. Prisma 7's CLI
// downloads a native schema engine for every command; Prisma 6.19 can run its WebAssembly schema
// engine over a driver adapter instead, so migrations need nothing but PostgreSQL itself.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

const here = dirname(fileURLToPath(import.meta.url));

// Prisma's update check would wait on a network that is not there.
process.env.CHECKPOINT_DISABLE ??= '1';

const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/wallet_api');

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: writePrisma6Schema(join(here, '../core/prisma/schema.prisma')),
  migrations: { path: join(here, '../core/prisma/migrations') },
  adapter: async () =>
    // Discrete fields rather than a connection string: the adapter opens the shadow database as
    // `{ ...config, database }`, and node-postgres lets a connection string override `database`,
    // which would point the shadow pool back at the main database.
    new PrismaPg({
      host: databaseUrl.hostname,
      port: Number(databaseUrl.port || 5432),
      database: decodeURIComponent(databaseUrl.pathname.slice(1)),
      user: decodeURIComponent(databaseUrl.username) || undefined,
      password: decodeURIComponent(databaseUrl.password) || undefined,
      // Idle connections must not keep the CLI process alive after the command is done.
      allowExitOnIdle: true,
    }),
});

/**
 * The schema is written for Prisma 7, which rejects `url` in a datasource block; Prisma 6 requires
 * one. This writes a copy with `url = "<invalid>"` (the value Prisma itself uses for "no URL here",
 * so it prints no warning; the adapter supplies the connection) and `engineType = "client"` (without
 * it the CLI downloads a native query engine it never uses). Returns the copy's path.
 */
function writePrisma6Schema(source: string): string {
  const schema = readFileSync(source, 'utf8')
    .replace(/datasource\s+\w+\s*\{/, (open) => `${open}\n  url = "<invalid>"`)
    .replace(/generator\s+\w+\s*\{/g, (open) => `${open}\n  engineType = "client"`);
  const target = join(here, 'node_modules/.cache/prisma-migrate/schema.prisma');
  mkdirSync(dirname(target), { recursive: true });
  // Write-then-rename so a concurrent command never reads a half-written file.
  writeFileSync(`${target}.${process.pid}`, schema);
  renameSync(`${target}.${process.pid}`, target);
  return target;
}
