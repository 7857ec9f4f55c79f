// Needs PostgreSQL with the migrated wallet_api_test database (scripts/infra/postgres.sh up).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPrisma } from '@wallet-api/core/db';
import { testConfig, uniqueName } from '@wallet-api/core/testing';
import { createOrganizationKey, findOrganizationByKey, hashApiKey, InvalidKeyRequestError } from '../src/auth/api-keys.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const cliMain = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from source through tsx, as a separate process like an operator would. */
function runCli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      `${repoRoot}node_modules/.bin/tsx`,
      [cliMain, ...args],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: testConfig().DATABASE_URL } },
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
  ])('the CLI exits 2 with a message on stderr for %p', async (args, message) => {
    const result = await runCli(args);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('usage: wallet-api keys create');
  });
});
