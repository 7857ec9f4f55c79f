import type { ExcludeFilters, StringList, SubscriptionFilters } from '@wallet-api/core/proto/subscription';
import { normalizeAddressList } from './wallet-address.js';

/** `filters.exclude` of decisions.md as stored (JSON column `tx_subscriptions.filters`). */
export interface StoredExclude {
  operation_types?: string[];
  trash?: boolean;
  dapp_ids?: string[];
  /** Counterparties: lowercase 0x-hex for EVM, base58 as given for Solana. */
  addresses?: string[];
}

/** `filters` as stored; a subscription without filters stores SQL NULL, not this. */
export interface StoredFilters {
  exclude?: StoredExclude;
}

const listOf = (list: StringList | undefined) => (list === undefined ? undefined : [...list.values]);
const stringList = (values: readonly string[] | undefined): StringList | undefined => (values === undefined ? undefined : { values: [...values] });

/**
 * The stored JSON of the proto filters: absent filters are `null`, filters without `exclude` are
 * `{}`, a list given empty stays an empty list (it is not the same as absent), and counterparty
 * addresses are normalised (INVALID_ARGUMENT for one of neither family).
 */
export function filtersToStored(filters: SubscriptionFilters | undefined): StoredFilters | null {
  if (filters === undefined) return null;
  const exclude = filters.exclude;
  if (exclude === undefined) return {};
  const stored: StoredExclude = {};
  const operationTypes = listOf(exclude.operationTypes);
  if (operationTypes !== undefined) stored.operation_types = operationTypes;
  if (exclude.trash !== undefined) stored.trash = exclude.trash;
  const dappIds = listOf(exclude.dappIds);
  if (dappIds !== undefined) stored.dapp_ids = dappIds;
  if (exclude.addresses !== undefined) stored.addresses = normalizeAddressList(exclude.addresses.values, 'filters.exclude.addresses');
  return { exclude: stored };
}

/** The proto filters of stored JSON; `null` is absent filters. */
export function filtersFromStored(stored: StoredFilters | null): SubscriptionFilters | undefined {
  if (stored === null) return undefined;
  if (stored.exclude === undefined) return { exclude: undefined };
  const exclude: ExcludeFilters = {
    operationTypes: stringList(stored.exclude.operation_types),
    dappIds: stringList(stored.exclude.dapp_ids),
    addresses: stringList(stored.exclude.addresses),
  };
  if (stored.exclude.trash !== undefined) exclude.trash = stored.exclude.trash;
  return { exclude };
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const excludeKeys: Record<keyof StoredExclude, (value: unknown) => boolean> = {
  operation_types: isStringArray,
  trash: (value) => typeof value === 'boolean',
  dapp_ids: isStringArray,
  addresses: isStringArray,
};

/**
 * Stored JSON read back from the database, checked: a row this code did not write fails loudly
 * rather than filtering by something nobody asked for.
 */
export function parseStoredFilters(json: unknown): StoredFilters | null {
  if (json === null || json === undefined) return null;
  const malformed = () => new Error(`stored subscription filters are malformed: ${JSON.stringify(json).slice(0, 200)}`);
  if (!isObject(json)) throw malformed();
  for (const key of Object.keys(json)) if (key !== 'exclude') throw malformed();
  if (json.exclude === undefined) return {};
  if (!isObject(json.exclude)) throw malformed();
  for (const [key, value] of Object.entries(json.exclude)) {
    const valid = excludeKeys[key as keyof StoredExclude];
    if (valid === undefined || !valid(value)) throw malformed();
  }
  return { exclude: json.exclude as StoredExclude };
}
