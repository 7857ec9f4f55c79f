import type { PrismaClient } from '@wallet-api/core/db';
import { displayPrefix, generateApiKey, hashApiKey, InvalidKeyRequestError } from './api-keys.js';

/** A key as an operator's listing shows it: never the key itself. */
export interface ApiKeyListing {
  id: string;
  prefix: string;
  organization: string;
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
}

const listingFields = { id: true, prefix: true, createdAt: true, revokedAt: true, expiresAt: true, organization: { select: { name: true } } } as const;

function toListing(row: {
  id: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
  organization: { name: string };
}): ApiKeyListing {
  return { id: row.id, prefix: row.prefix, organization: row.organization.name, createdAt: row.createdAt, revokedAt: row.revokedAt, expiresAt: row.expiresAt };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The key of `id`; InvalidKeyRequestError when there is none (or the id is no key id). */
async function existing(prisma: PrismaClient, id: string): Promise<ApiKeyListing> {
  const row = uuid.test(id) ? await prisma.apiKey.findUnique({ where: { id }, select: listingFields }) : null;
  if (!row) throw new InvalidKeyRequestError(`no API key has the id ${JSON.stringify(id)} (keys list shows the ids)`);
  return toListing(row);
}

/** Every key, or one organization's, oldest first. */
export async function listApiKeys(prisma: PrismaClient, filter: { org?: string } = {}): Promise<ApiKeyListing[]> {
  const rows = await prisma.apiKey.findMany({
    where: filter.org === undefined ? {} : { organization: { name: filter.org } },
    select: listingFields,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toListing);
}

/** Revokes the key of `id` now (a key revoked already keeps its first revocation time). */
export async function revokeApiKey(prisma: PrismaClient, id: string, now = new Date()): Promise<ApiKeyListing> {
  await existing(prisma, id);
  await prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
  return existing(prisma, id);
}

/**
 * A new key for the organization of the key `id`, with the same expiry rule, and the old key
 * revoked now, or, with `previousValidMs`, expiring that much later (time to deploy the new one).
 */
export async function rotateApiKey(
  prisma: PrismaClient,
  id: string,
  options: { previousValidMs?: number; expiresAt?: Date; now?: Date } = {},
): Promise<{ key: string; created: ApiKeyListing; previous: ApiKeyListing }> {
  const now = options.now ?? new Date();
  const old = await existing(prisma, id);
  if (old.revokedAt !== null) throw new InvalidKeyRequestError(`API key ${id} is revoked already: create a new key for ${old.organization} instead`);
  const key = generateApiKey();
  const previousUntil = options.previousValidMs ? new Date(now.getTime() + options.previousValidMs) : undefined;
  const [created] = await prisma.$transaction([
    prisma.apiKey.create({
      data: {
        keyHash: hashApiKey(key),
        prefix: displayPrefix(key),
        expiresAt: options.expiresAt ?? null,
        organization: { connect: { name: old.organization } },
      },
      select: listingFields,
    }),
    previousUntil === undefined
      ? prisma.apiKey.update({ where: { id }, data: { revokedAt: now }, select: listingFields })
      : prisma.apiKey.update({
          where: { id },
          // An earlier expiry stays: rotating never lengthens the old key's life.
          data: { expiresAt: old.expiresAt !== null && old.expiresAt < previousUntil ? old.expiresAt : previousUntil },
          select: listingFields,
        }),
  ]);
  return { key, created: toListing(created), previous: await existing(prisma, id) };
}
