// Operator command line: `wallet-api keys create|list|revoke|rotate ...` (see ./keys-create.ts and
// ./keys-admin.ts for the options) and `wallet-api openapi [--out <file>]` (see ./openapi-document.ts).
// Exit codes: 0 done, 2 wrong usage (including unknown roles, addons or key ids), 1 anything else.
import { writeFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { databaseEnv, parseEnv, redisEnv } from '@wallet-api/core/config';
import { createPrisma, type PrismaClient } from '@wallet-api/core/db';
import { createOrganizationKey, InvalidKeyRequestError } from '../auth/api-keys.js';
import { listApiKeys, revokeApiKey, rotateApiKey } from '../auth/key-admin.js';
import { announceKeyRevocation } from '../auth/key-revocations.js';
import { formatKeyListing, parseKeysListArgs, parseKeysRevokeArgs, parseKeysRotateArgs, usage as keysAdminUsage } from './keys-admin.js';
import { parseKeysCreateArgs, usage as keysUsage, UsageError } from './keys-create.js';
import { buildGatewayDocument, formatDocument, openApiUsage, parseOpenApiArgs } from './openapi-document.js';

const usage = `${keysUsage}\n${keysAdminUsage}\n${openApiUsage}`;

async function withDatabase<T>(run: (prisma: PrismaClient) => Promise<T>): Promise<T> {
  const { DATABASE_URL } = parseEnv(databaseEnv);
  const prisma = createPrisma(DATABASE_URL);
  try {
    return await run(prisma);
  } finally {
    await prisma.$disconnect();
  }
}

/** Tells the gateways a key stopped working; says so when they could not be told. */
async function announceRevocation(): Promise<void> {
  const { REDIS_URL, REDIS_KEY_PREFIX } = parseEnv(redisEnv);
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const listening = await announceKeyRevocation(redis, REDIS_KEY_PREFIX);
    process.stdout.write(`gateways told: ${listening} listening\n`);
  } catch {
    process.stderr.write(`wallet-api: Redis (${new URL(REDIS_URL).host}) could not be reached: gateways stop accepting the key within 30 s\n`);
  } finally {
    redis.disconnect();
  }
}

async function keysCommand(command: string | undefined, args: string[]): Promise<number> {
  switch (command) {
    case 'create': {
      const request = parseKeysCreateArgs(args);
      const { key, organization } = await withDatabase((prisma) => createOrganizationKey(prisma, request));
      const limits = (value: number | null) => (value === null ? 'deployment default' : String(value));
      process.stdout.write(
        `${[
          `organization: ${organization.name} (${organization.id})`,
          `roles:        ${organization.roles.join(', ') || '(none)'}`,
          `addons:       ${organization.addons.join(', ') || '(none)'}`,
          `rate limit:   ${limits(organization.rateLimitPerSecond)} per second, burst ${limits(organization.rateLimitBurst)}`,
          `expires:      ${request.expiresAt?.toISOString() ?? 'never (until revoked)'}`,
          'api key (shown once; store it now):',
          key,
        ].join('\n')}\n`,
      );
      return 0;
    }
    case 'list': {
      const filter = parseKeysListArgs(args);
      process.stdout.write(formatKeyListing(await withDatabase((prisma) => listApiKeys(prisma, filter))));
      return 0;
    }
    case 'revoke': {
      const { id } = parseKeysRevokeArgs(args);
      const revoked = await withDatabase((prisma) => revokeApiKey(prisma, id));
      process.stdout.write(`revoked ${revoked.id} (${revoked.prefix}..., ${revoked.organization}) at ${revoked.revokedAt!.toISOString()}\n`);
      await announceRevocation();
      return 0;
    }
    case 'rotate': {
      const { id, ...options } = parseKeysRotateArgs(args);
      const { key, created, previous } = await withDatabase((prisma) => rotateApiKey(prisma, id, options));
      const until = previous.revokedAt ? `revoked at ${previous.revokedAt.toISOString()}` : `valid until ${previous.expiresAt!.toISOString()}`;
      process.stdout.write(`previous key ${previous.id} (${previous.prefix}...): ${until}\n`);
      if (previous.revokedAt) await announceRevocation();
      // The key last, as keys create prints it.
      process.stdout.write(`${[`new key ${created.id} for ${created.organization} (shown once; store it now):`, key].join('\n')}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(['keys', command].filter(Boolean).join(' '))}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [group, command, ...args] = argv;
  if (group === '--help' || group === 'help') {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (group === undefined) throw new UsageError('a command is required');
  if (group === 'openapi') {
    const { out, publicUrl } = parseOpenApiArgs([command, ...args].filter((arg): arg is string => arg !== undefined));
    const text = formatDocument(buildGatewayDocument(publicUrl));
    if (out === undefined) process.stdout.write(text);
    else await writeFile(out, text);
    return 0;
  }
  if (group === 'keys') return keysCommand(command, args);
  throw new UsageError(`unknown command ${JSON.stringify(group)}`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof InvalidKeyRequestError) {
      process.stderr.write(`wallet-api: ${error.message}\n\n${usage}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`wallet-api: ${(error instanceof Error ? error.message : String(error)).trim()}\n`);
      process.exitCode = 1;
    }
  },
);
