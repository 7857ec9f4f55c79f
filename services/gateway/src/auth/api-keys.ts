import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { PrismaClient } from '@wallet-api/core/db';
import type { Organization } from './authenticate.js';

export const organizationRoles = ['pending-orders', 'rwa'] as const;
export const organizationAddons = ['classification'] as const;

const keyPrefix = 'wak_';
/** Long enough to tell keys apart in a listing, far too short to be used as one. */
const displayPrefixLength = 12;

export class InvalidKeyRequestError extends Error {
  override name = 'InvalidKeyRequestError';
}

/** `wak_` and 32 random bytes in base64url: 256 bits of entropy, safe in URLs and HTTP Basic. */
export function generateApiKey(): string {
  return `${keyPrefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * Keys are stored only as this hash. A fast unsalted hash is enough: the key is 256 random bits,
 * so there is nothing to brute-force, and a lookup must find the row by the hash alone.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface OrganizationKeyRequest {
  /** Organization name; the organization is created when no organization has it yet. */
  org: string;
  /** Replace the organization's roles; omitted keeps them (none for a new organization). */
  roles?: readonly string[];
  /** Replace the organization's addons; omitted keeps them (none for a new organization). */
  addons?: readonly string[];
  /** Requests per second; omitted keeps the current limit, null restores the deployment default. */
  rateLimitPerSecond?: number | null;
  /** Burst size; omitted keeps the current value, null restores the deployment default. */
  rateLimitBurst?: number | null;
  /** When the new key stops working; omitted, it works until revoked. */
  expiresAt?: Date;
}

const allowed = (kind: string, values: readonly string[]) => (issue: { input?: unknown }) =>
  `unknown ${kind} ${JSON.stringify(issue.input)} (allowed: ${values.join(', ')})`;

const rateLimit = (field: string) => {
  const error = `${field} must be a positive integer or null`;
  return z.number({ error }).int({ error }).positive({ error }).nullable().optional();
};

const keyRequestSchema = z.object({
  org: z.string().trim().min(1, 'the organization name must not be empty'),
  roles: z.array(z.enum(organizationRoles, { error: allowed('role', organizationRoles) })).optional(),
  addons: z.array(z.enum(organizationAddons, { error: allowed('addon', organizationAddons) })).optional(),
  rateLimitPerSecond: rateLimit('rateLimitPerSecond'),
  rateLimitBurst: rateLimit('rateLimitBurst'),
});

const organizationFields = {
  id: true,
  name: true,
  roles: true,
  addons: true,
  rateLimitPerSecond: true,
  rateLimitBurst: true,
} as const;

/**
 * Creates an API key for the named organization, creating the organization or updating the
 * settings given in `request`. The returned key is the only copy: only its hash is stored.
 */
export async function createOrganizationKey(prisma: PrismaClient, request: OrganizationKeyRequest): Promise<{ key: string; organization: Organization }> {
  const parsed = keyRequestSchema.safeParse(request);
  if (!parsed.success) {
    throw new InvalidKeyRequestError(parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  const { org, roles, addons, rateLimitPerSecond, rateLimitBurst } = parsed.data;
  const key = generateApiKey();
  const apiKeys = { create: { keyHash: hashApiKey(key), prefix: displayPrefix(key), expiresAt: request.expiresAt ?? null } };
  // One upsert with the key nested in both branches, so the organization and its key are written
  // together or not at all. Prisma skips fields that are undefined, which keeps current settings.
  const organization = await prisma.organization.upsert({
    where: { name: org },
    create: {
      name: org,
      roles: [...new Set(roles)],
      addons: [...new Set(addons)],
      rateLimitPerSecond: rateLimitPerSecond ?? null,
      rateLimitBurst: rateLimitBurst ?? null,
      apiKeys,
    },
    update: {
      roles: roles && [...new Set(roles)],
      addons: addons && [...new Set(addons)],
      rateLimitPerSecond,
      rateLimitBurst,
      apiKeys,
    },
    select: organizationFields,
  });
  return { key, organization };
}

/** What a listing shows of a key: its first characters, never enough to use it. */
export const displayPrefix = (key: string): string => key.slice(0, displayPrefixLength);

/**
 * The organization that owns `key`, or null when the key is unknown, revoked or expired; with the
 * key's expiry (`keyExpiresAt`), so that a cached answer ends with it.
 */
export async function findOrganizationByKey(prisma: PrismaClient, key: string, now: () => number = Date.now): Promise<Organization | null> {
  const apiKey = await prisma.apiKey.findUnique({
    where: { keyHash: hashApiKey(key), revokedAt: null },
    select: { expiresAt: true, organization: { select: organizationFields } },
  });
  if (!apiKey || (apiKey.expiresAt !== null && apiKey.expiresAt.getTime() <= now())) return null;
  return { ...apiKey.organization, ...(apiKey.expiresAt ? { keyExpiresAt: apiKey.expiresAt.getTime() } : {}) };
}
