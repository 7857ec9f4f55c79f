import type { ApiKeyListing } from '../auth/key-admin.js';
import { parseCommandArgs, positiveInteger, UsageError } from './keys-create.js';

export const usage = `usage: wallet-api keys list [--org <name>]
  Lists every key (or one organization's): id, first characters, organization, created, revoked, expires.
usage: wallet-api keys revoke <key id>
  Revokes the key now. Every gateway replica answers it 401 within a second (told through Redis;
  if Redis cannot be reached, within the 30 s their cache keeps a key).
usage: wallet-api keys rotate <key id> [--previous-valid-hours <hours>] [--expires-in-days <days>]
  Creates a new key for the key's organization and revokes the old one now, or lets it expire
  --previous-valid-hours from now (time to deploy the new key). The new key is printed last.`;

export interface RotateRequest {
  id: string;
  previousValidMs?: number;
  expiresAt?: Date;
}

/** Parses the arguments that follow `keys list`. */
export function parseKeysListArgs(args: string[]): { org?: string } {
  const { values } = parseCommandArgs({ args, strict: true, allowPositionals: false, options: { org: { type: 'string' } } });
  return values.org === undefined ? {} : { org: values.org };
}

function keyId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`keys ${command} takes one key id (keys list shows them)`);
  return positionals[0]!;
}

/** Parses the arguments that follow `keys revoke`. */
export function parseKeysRevokeArgs(args: string[]): { id: string } {
  const { positionals } = parseCommandArgs({ args, strict: true, allowPositionals: true, options: {} });
  return { id: keyId(positionals, 'revoke') };
}

/** Parses the arguments that follow `keys rotate`. `now`: unix ms, where an expiry counts from. */
export function parseKeysRotateArgs(args: string[], now: number = Date.now()): RotateRequest {
  const { values, positionals } = parseCommandArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { 'previous-valid-hours': { type: 'string' }, 'expires-in-days': { type: 'string' } },
  });
  const hours = positiveInteger('--previous-valid-hours', values['previous-valid-hours']);
  const days = positiveInteger('--expires-in-days', values['expires-in-days']);
  return {
    id: keyId(positionals, 'rotate'),
    ...(hours === undefined ? {} : { previousValidMs: hours * 3_600_000 }),
    ...(days === undefined ? {} : { expiresAt: new Date(now + days * 86_400_000) }),
  };
}

/** One key per line, aligned columns; `-` where a time is absent. */
export function formatKeyListing(keys: readonly ApiKeyListing[]): string {
  const time = (value: Date | null) => (value === null ? '-' : value.toISOString());
  const rows = [
    ['id', 'prefix', 'organization', 'created', 'revoked', 'expires'],
    ...keys.map((key) => [key.id, key.prefix, key.organization, time(key.createdAt), time(key.revokedAt), time(key.expiresAt)]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
