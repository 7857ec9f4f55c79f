import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { createLogger, hostOf, type Logger } from '../logger/index.js';
import { postgresQueryDuration, statementKind } from '../metrics/platform-metrics.js';
import { PrismaClient } from '../generated/prisma/client.js';

export { Prisma, PrismaClient } from '../generated/prisma/client.js';
export type { ApiKey, Organization, TokenMetadata } from '../generated/prisma/client.js';

/**
 * A Prisma client over node-postgres, recording every statement's latency; the caller owns it and
 * calls `$disconnect()` when done (which also ends its pool). A lost connection is logged to
 * `logger` at warn and never ends the process.
 */
export function createPrisma(databaseUrl: string, logger: Pick<Logger, 'warn'> = createLogger('postgres')): PrismaClient {
  const pool = new pg.Pool({ connectionString: databaseUrl });
  const host = hostOf(databaseUrl);
  // @prisma/adapter-pg listens for 'error' on idle clients and inside its transactions, but a
  // client handed from a finished query to a waiting transaction is unlistened until the awaited
  // connect() resumes. On a fast shutdown PostgreSQL's goodbye (57P01) arrives in the same read as
  // the previous reply, so the 'error' found no listener and killed the process. Every client gets
  // a listener for its whole life instead.
  pool.on('connect', (client) => client.on('error', (error) => logger.warn({ err: error, host }, 'PostgreSQL connection lost; the pool opens another')));
  // The pool re-emits an idle client's error, which the listener above has already logged.
  pool.on('error', () => {});
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }), log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (event) => postgresQueryDuration.observe({ operation: statementKind(event.query) }, event.duration / 1000));
  return client;
}
