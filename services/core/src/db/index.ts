import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.js';

export { Prisma, PrismaClient } from './generated/client.js';
export type { ApiKey, Organization, TokenMetadata } from './generated/client.js';

/** A Prisma client over node-postgres; the caller owns it and calls `$disconnect()` when done. */
export function createPrisma(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}
