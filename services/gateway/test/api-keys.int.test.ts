// Needs PostgreSQL with the migrated wallet_api_test database (scripts/infra/postgres.sh up).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPrisma } from '@wallet-api/core/db';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { Redis } from 'ioredis';
import { createOrganizationKey, findOrganizationByKey, hashApiKey, InvalidKeyRequestError } from '../src/auth/api-keys.js';
import { cachedLookup } from '../src/auth/authenticate.js';
import { listApiKeys, revokeApiKey, rotateApiKey } from '../src/auth/key-admin.js';
import { followKeyRevocations } from '../src/auth/key-revocations.js';
import { formatKeyListing } from '../src/cli/keys-admin.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const cliMain = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from source through tsx, as a separate process like an operator would. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      `${repoRoot}node_modules/.bin/tsx`,
      [cliMain, ...args],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: testConfig().DATABASE_URL, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('API keys in PostgreSQL', () => {
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const createdOrgs: string[] = [];
  const orgName = (prefix: string) => {
    const name = uniqueName(prefix);
    createdOrgs.push(name);
    return name;
  };

  afterAll(async () => {
    // Keys go with their organization (ON DELETE CASCADE).
    await prisma.organization.deleteMany({ where: { name: { in: createdOrgs } } });
    await prisma.$disconnect();
  });

  test('creates an organization and a key, and finds the organization by the key', async () => {
    const org = orgName('acme');
    const { key, organization } = await createOrganizationKey(prisma, {
      org,
      roles: ['rwa', 'pending-orders'],
      addons: ['classification'],
      rateLimitPerSecond: 5,
      rateLimitBurst: 10,
    });
    const expected = {
      id: organization.id,
      name: org,
      roles: ['rwa', 'pending-orders'],
      addons: ['classification'],
      rateLimitPerSecond: 5,
      rateLimitBurst: 10,
    };
    expect(organization).toEqual(expected);
    expect(await findOrganizationByKey(prisma, key)).toEqual(expected);

    const stored = await prisma.apiKey.findMany({ where: { organizationId: organization.id } });
    expect(stored).toEqual([expect.objectContaining({ keyHash: hashApiKey(key), prefix: key.slice(0, 12), revokedAt: null })]);
  });

  test('a second key for the same organization changes only the settings it gives', async () => {
    const org = orgName('acme');
    const first = await createOrganizationKey(prisma, { org, roles: ['rwa'], rateLimitPerSecond: 5 });
    const second = await createOrganizationKey(prisma, { org, addons: ['classification'], rateLimitPerSecond: null });

    expect(second.organization).toEqual({
      id: first.organization.id,
      name: org,
      roles: ['rwa'],
      addons: ['classification'],
      rateLimitPerSecond: null,
      rateLimitBurst: null,
    });
    expect(second.key).not.toBe(first.key);
    expect((await findOrganizationByKey(prisma, first.key))?.id).toBe(first.organization.id);
    expect((await findOrganizationByKey(prisma, second.key))?.id).toBe(first.organization.id);
  });

  test('a revoked key finds nothing, while the organization keeps its other keys', async () => {
    const org = orgName('revoked');
    const revoked = await createOrganizationKey(prisma, { org });
    const kept = await createOrganizationKey(prisma, { org });
    await prisma.apiKey.update({ where: { keyHash: hashApiKey(revoked.key) }, data: { revokedAt: new Date() } });

    expect(await findOrganizationByKey(prisma, revoked.key)).toBeNull();
    expect((await findOrganizationByKey(prisma, kept.key))?.name).toBe(org);
  });

  test('an unknown key finds nothing', async () => {
    expect(await findOrganizationByKey(prisma, 'wak_unknown')).toBeNull();
  });

  test.each([
    [{ roles: ['rwa', 'admin'] }, 'unknown role "admin" (allowed: pending-orders, rwa)'],
    [{ addons: ['charts'] }, 'unknown addon "charts" (allowed: classification)'],
    [{ rateLimitPerSecond: 0 }, 'rateLimitPerSecond must be a positive integer or null'],
    [{ rateLimitBurst: 2.5 }, 'rateLimitBurst must be a positive integer or null'],
  ])('rejects %p without writing anything', async (settings, message) => {
    const org = orgName('rejected');
    const attempt = createOrganizationKey(prisma, { org, ...settings });
    await expect(attempt).rejects.toThrow(InvalidKeyRequestError);
    await expect(attempt).rejects.toThrow(message);
    expect(await prisma.organization.findUnique({ where: { name: org } })).toBeNull();
  });

  test('the CLI prints the new key as the last line of stdout', async () => {
    const org = orgName('cli');
    const result = await runCli(['keys', 'create', '--org', org, '--roles', 'rwa', '--rate-limit', '7', '--burst', '9']);

    expect(result).toEqual(expect.objectContaining({ code: 0, stderr: '' }));
    const key = result.stdout.trimEnd().split('\n').at(-1)!;
    expect(key).toMatch(/^wak_[A-Za-z0-9_-]{43}$/);
    expect(await findOrganizationByKey(prisma, key)).toEqual(
      expect.objectContaining({ name: org, roles: ['rwa'], addons: [], rateLimitPerSecond: 7, rateLimitBurst: 9 }),
    );
  });

  test.each([
    [[], 'a command is required'],
    [['keys', 'create'], '--org is required'],
    [['keys', 'create', '--org', 'x', '--roles', 'admin'], 'unknown role "admin"'],
    [['keys', 'create', '--org', 'x', '--colour', 'red'], "Unknown option '--colour'"],
    [['keys', 'delete'], 'unknown command "keys delete"'],
    [['keys', 'revoke', 'not-a-key-id'], 'no API key has the id "not-a-key-id"'],
  ])('the CLI exits 2 with a message on stderr for %p', async (args, message) => {
    const result = await runCli(args);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: wallet-api keys create');
  });

  /** The keys of `org` as `keys list --org` prints them, a row of columns each. */
  async function listedKeys(org: string): Promise<string[][]> {
    const [header, ...rows] = formatKeyListing(await listApiKeys(prisma, { org }))
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    expect(header).toEqual(['id', 'prefix', 'organization', 'created', 'revoked', 'expires']);
    return rows;
  }

  test('keys list shows ids and first characters, never a key; revoke stops the key; rotate issues a new one and ends the old', async () => {
    const org = orgName('lifecycle');
    const created = await runCli(['keys', 'create', '--org', org, '--expires-in-days', '30']);
    const first = created.stdout.trim().split('\n').at(-1)!;
    const listed = await runCli(['keys', 'list', '--org', org]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(first);
    const [row] = listed.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s{2,}/));
    expect(row).toEqual((await listedKeys(org))[0]);
    const [id, prefix, listedOrg, , revoked, expires] = row!;
    expect([prefix, listedOrg, revoked]).toEqual([first.slice(0, 12), org, '-']);
    expect(Math.abs(Date.parse(expires!) - Date.now() - 30 * 86_400_000)).toBeLessThan(120_000);

    // Rotation with an overlap: the new key works, the old one until its new expiry.
    const rotated = await runCli(['keys', 'rotate', id!, '--previous-valid-hours', '2']);
    expect(rotated.code).toBe(0);
    const second = rotated.stdout.trim().split('\n').at(-1)!;
    expect(second).toMatch(/^wak_/);
    expect(await findOrganizationByKey(prisma, second)).toEqual(expect.objectContaining({ name: org }));
    const overlapping = await findOrganizationByKey(prisma, first);
    expect(overlapping!.keyExpiresAt! - Date.now()).toBeGreaterThan(2 * 3_600_000 - 120_000);
    expect(overlapping!.keyExpiresAt! - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);

    // Rotation without one revokes the old key at once; revoking it again is harmless.
    const secondId = (await listedKeys(org)).find(([, keyPrefix]) => keyPrefix === second.slice(0, 12))![0]!;
    const third = (await runCli(['keys', 'rotate', secondId])).stdout.trim().split('\n').at(-1)!;
    expect(await findOrganizationByKey(prisma, second)).toBeNull();
    expect(await findOrganizationByKey(prisma, third)).toEqual(expect.objectContaining({ name: org }));
    const thirdId = (await listedKeys(org)).find(([, keyPrefix]) => keyPrefix === third.slice(0, 12))![0]!;
    const revoke = await runCli(['keys', 'revoke', thirdId]);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain(`revoked ${thirdId}`);
    expect(await findOrganizationByKey(prisma, third)).toBeNull();
    // Revoking again keeps the first revocation; a revoked key cannot be rotated.
    const revokedAt = (await listedKeys(org)).find(([keyId]) => keyId === thirdId)![4];
    expect((await revokeApiKey(prisma, thirdId)).revokedAt!.toISOString()).toBe(revokedAt);
    await expect(rotateApiKey(prisma, thirdId)).rejects.toThrow('is revoked already');
  });

  test('an expired key finds nothing; one that expires later says when', async () => {
    const org = orgName('expiring');
    const expired = await createOrganizationKey(prisma, { org, expiresAt: new Date(Date.now() - 1_000) });
    expect(await findOrganizationByKey(prisma, expired.key)).toBeNull();
    const later = new Date(Date.now() + 60_000);
    const live = await createOrganizationKey(prisma, { org, expiresAt: later });
    expect(await findOrganizationByKey(prisma, live.key)).toEqual(expect.objectContaining({ name: org, keyExpiresAt: later.getTime() }));
    expect(await findOrganizationByKey(prisma, live.key, () => later.getTime())).toBeNull();
  });

  test('keys revoke: every replica that kept the key answers for it no more within a second', async () => {
    const org = orgName('replicas');
    const { key } = await createOrganizationKey(prisma, { org });
    const keyPrefix = uniqueName('keys');
    const redisUrl = testConfig().REDIS_URL;
    // Two gateway replicas' key caches, each following the revocations on its own connection.
    const replicas = [0, 1].map(() => {
      const lookup = cachedLookup((candidate) => findOrganizationByKey(prisma, candidate));
      return { lookup, subscriber: new Redis(redisUrl) };
    });
    try {
      for (const { lookup, subscriber } of replicas) {
        await followKeyRevocations(subscriber, keyPrefix, () => lookup.forgetAll(), testLogger);
        expect(await lookup(key)).toEqual(expect.objectContaining({ name: org }));
      }
      const { id } = (await prisma.apiKey.findMany({ where: { organization: { name: org } }, select: { id: true } }))[0]!;
      const revoke = await runCli(['keys', 'revoke', id], { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: keyPrefix });
      expect(revoke.stdout).toContain('gateways told: 2 listening');
      const revokedAt = Date.now();
      for (const { lookup } of replicas) {
        while ((await lookup(key)) !== null) {
          expect(Date.now() - revokedAt).toBeLessThan(1_000);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    } finally {
      for (const { subscriber } of replicas) subscriber.disconnect();
    }
  });
});
