// Operator command line: `wallet-api keys create ...` (see ./keys-create.ts for the options) and
// `wallet-api openapi [--out <file>]` (see ./openapi-document.ts).
// Exit codes: 0 done, 2 wrong usage (including unknown roles or addons), 1 anything else.
import { writeFile } from 'node:fs/promises';
import { databaseEnv, parseEnv } from '@wallet-api/core/config';
import { createPrisma } from '@wallet-api/core/db';
import { createOrganizationKey, InvalidKeyRequestError } from '../auth/api-keys.js';
import { parseKeysCreateArgs, usage as keysUsage, UsageError } from './keys-create.js';
import { buildGatewayDocument, formatDocument, openApiUsage, parseOpenApiArgs } from './openapi-document.js';

const usage = `${keysUsage}\n${openApiUsage}`;

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
  if (group !== 'keys' || command !== 'create') {
    throw new UsageError(`unknown command ${JSON.stringify([group, command].filter(Boolean).join(' '))}`);
  }
  const request = parseKeysCreateArgs(args);
  const { DATABASE_URL } = parseEnv(databaseEnv);
  const prisma = createPrisma(DATABASE_URL);
  try {
    const { key, organization } = await createOrganizationKey(prisma, request);
    const limits = (value: number | null) => (value === null ? 'deployment default' : String(value));
    process.stdout.write(
      [
        `organization: ${organization.name} (${organization.id})`,
        `roles:        ${organization.roles.join(', ') || '(none)'}`,
        `addons:       ${organization.addons.join(', ') || '(none)'}`,
        `rate limit:   ${limits(organization.rateLimitPerSecond)} per second, burst ${limits(organization.rateLimitBurst)}`,
        'api key (shown once; store it now):',
        key,
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await prisma.$disconnect();
  }
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
