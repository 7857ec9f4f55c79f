// Parameter checks with the node's error messages (serde's for wrong types, agave's
// `verify_pubkey`/`verify_signature` for bad base58), and a JSON reader that keeps integers above
// 2^53 exact (kit writes u64 parameters as plain JSON numbers).
import { getBase58Encoder } from '@solana/kit';
import { invalidParams, minContextSlotNotReached } from './rpc-errors.js';

const bigIntMarker = '\u0000u64:';
const base58 = getBase58Encoder();

/** JSON.parse, with integer literals beyond Number.MAX_SAFE_INTEGER kept as exact markers. */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      const start = index;
      index++;
      while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
      index++;
      out += text.slice(start, index);
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
      const token = match?.[0] ?? char;
      const integral = match !== null && match[1] === undefined && match[2] === undefined;
      out += integral && !Number.isSafeInteger(Number(token)) ? JSON.stringify(`${bigIntMarker}${token}`) : token;
      index += token.length;
    } else {
      out += char;
      index++;
    }
  }
  return JSON.parse(out);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.startsWith(bigIntMarker) ? `integer \`${value.slice(bigIntMarker.length)}\`` : `string "${value}"`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (Array.isArray(value)) return 'sequence';
  return 'map';
}

export function invalidType(value: unknown, expected: string) {
  return invalidParams(`Invalid params: invalid type: ${describe(value)}, expected ${expected}.`);
}

/** Positional parameters; a method with `required` parameters needs at least that many. */
export function positional(params: unknown, required: number): unknown[] {
  const list = params === undefined || params === null ? [] : params;
  if (!Array.isArray(list)) throw invalidType(list, 'a sequence');
  if (list.length < required) throw invalidParams(`\`params\` should have at least ${required} argument(s)`);
  return list;
}

export function stringParam(value: unknown): string {
  if (typeof value !== 'string' || value.startsWith(bigIntMarker)) throw invalidType(value, 'a string');
  return value;
}

export function u64Param(value: unknown): bigint {
  if (typeof value === 'string' && value.startsWith(bigIntMarker)) {
    const parsed = BigInt(value.slice(bigIntMarker.length));
    if (parsed >= 0n && parsed < 2n ** 64n) return parsed;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  throw invalidType(value, 'u64');
}

export function usizeParam(value: unknown): number {
  return Number(u64Param(value));
}

export function boolParam(value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalidType(value, 'a boolean');
  return value;
}

function decodeBase58(text: string, length: number): Uint8Array | 'WrongSize' | 'Invalid' {
  if (text.length > (length === 32 ? 44 : 88)) return 'WrongSize';
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(base58.encode(text));
  } catch {
    return 'Invalid';
  }
  return bytes.length === length ? bytes : 'WrongSize';
}

/** `verify_pubkey`: `Invalid param: WrongSize` / `Invalid param: Invalid`. */
export function pubkeyParam(value: unknown): string {
  const text = stringParam(value);
  const decoded = decodeBase58(text, 32);
  if (typeof decoded === 'string') throw invalidParams(`Invalid param: ${decoded}`);
  return text;
}

export function signatureParam(value: unknown): string {
  const text = stringParam(value);
  const decoded = decodeBase58(text, 64);
  if (typeof decoded === 'string') throw invalidParams(`Invalid param: ${decoded}`);
  return text;
}

export type Config = Record<string, unknown>;

/** An optional configuration object (absent or null reads as empty). */
export function configParam(value: unknown): Config {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidType(value, 'a map');
  return value as Config;
}

const commitments = new Map([
  ['processed', 'processed'],
  ['confirmed', 'confirmed'],
  ['finalized', 'finalized'],
  // deprecated spellings serde still accepts
  ['recent', 'processed'],
  ['single', 'confirmed'],
  ['singleGossip', 'confirmed'],
  ['root', 'finalized'],
  ['max', 'finalized'],
]);

export type Commitment = 'processed' | 'confirmed' | 'finalized';

export function commitmentOf(config: Config): Commitment {
  const value = config.commitment;
  if (value === undefined || value === null) return 'finalized';
  const text = stringParam(value);
  const found = commitments.get(text);
  if (!found) throw invalidParams(`Invalid params: unknown variant \`${text}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\`.`);
  return found as Commitment;
}

/** `check_is_at_least_confirmed` (getBlock, getTransaction, getSignaturesForAddress, ...). */
export function atLeastConfirmed(config: Config): void {
  if (commitmentOf(config) === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
}

export function enumParam<T extends string>(value: unknown, variants: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback;
  const text = stringParam(value);
  if (!(variants as readonly string[]).includes(text)) {
    throw invalidParams(`Invalid params: unknown variant \`${text}\`, expected one of ${variants.map((variant) => `\`${variant}\``).join(', ')}.`);
  }
  return text as T;
}

/** `minContextSlot`: the request fails when the node is not there yet. */
export function checkMinContextSlot(config: Config, contextSlot: bigint): void {
  if (config.minContextSlot === undefined || config.minContextSlot === null) return;
  if (u64Param(config.minContextSlot) > contextSlot) throw minContextSlotNotReached(contextSlot);
}

export function optionalU8(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = u64Param(value);
  if (parsed > 255n) throw invalidType(value, 'u8');
  return Number(parsed);
}
