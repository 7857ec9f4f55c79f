import { parseArgs, type ParseArgsConfig } from 'node:util';
import { organizationAddons, organizationRoles, type OrganizationKeyRequest } from '../auth/api-keys.js';

/** Wrong command-line usage: the CLI prints the message with the usage text and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const usage = `usage: wallet-api keys create --org <name> [--roles <role,...>] [--addons <addon,...>]
                              [--rate-limit <per second>] [--burst <requests>] [--expires-in-days <days>]
  Creates an API key for the organization, creating the organization when it does not exist.
  --expires-in-days: the key stops working that many days from now; omitted, when it is revoked.
  --roles and --addons replace the organization's current ones; omitted, they are kept.
  roles:  ${organizationRoles.join(', ')}
  addons: ${organizationAddons.join(', ')}
  The key is printed on the last line of standard output; it is not stored and cannot be shown again.`;

/** node:util parseArgs, its complaints (unknown options, missing values, stray arguments) as usage errors. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

/** Parses the arguments that follow `keys create`. `now`: unix ms, where an expiry counts from. */
export function parseKeysCreateArgs(args: string[], now: number = Date.now()): OrganizationKeyRequest {
  const { values } = parseCommandArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      org: { type: 'string' },
      roles: { type: 'string' },
      addons: { type: 'string' },
      'rate-limit': { type: 'string' },
      burst: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
  });
  if (values.org === undefined) throw new UsageError('--org is required');
  const expiresInDays = positiveInteger('--expires-in-days', values['expires-in-days']);
  return {
    org: values.org,
    roles: list(values.roles),
    addons: list(values.addons),
    rateLimitPerSecond: positiveInteger('--rate-limit', values['rate-limit']),
    rateLimitBurst: positiveInteger('--burst', values.burst),
    ...(expiresInDays === undefined ? {} : { expiresAt: new Date(now + expiresInDays * 86_400_000) }),
  };
}

/** `a,b` -> ['a', 'b']; an empty value (`--roles ""`) means none. */
function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

export function positiveInteger(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number <= 0) {
    throw new UsageError(`${option} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return number;
}
