import { PrismaPg } from '@prisma/adapter-pg';
import { postgresQueryDuration, statementKind } from '../metrics/platform-metrics.js';
import { PrismaClient } from './generated/client.js';

export { Prisma, PrismaClient } from './generated/client.js';
export type { ApiKey, Organization, TokenMetadata } from './generated/client.js';

/**
 * A Prisma client over node-postgres, recording every statement's latency; the caller owns it and
 * calls `$disconnect()` when done.
 */
export function createPrisma(databaseUrl: string): PrismaClient {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }), log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (event) => postgresQueryDuration.observe({ operation: statementKind(event.query) }, event.duration / 1000));
  return client;
}
