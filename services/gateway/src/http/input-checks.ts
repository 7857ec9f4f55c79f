/**
 * Checks every route's input gets before its schema reads it: the hostile values a schema of
 * one route would let through to a backend (a NUL in a search text reached PostgreSQL, which
 * refuses it: a 500) or silently drop (an array-form key such as `filter[chain_ids][]=x`
 * answered as if it were absent).
 */

/** Where a NUL character is in `value`: the path of keys to the first string (or key) holding one. */
export function nulCharacterPath(value: unknown, path: readonly (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\0') ? [...path] : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulCharacterPath(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\0')) return [...path, key];
      const found = nulCharacterPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The first query key that is a known parameter in array or index form (`currency[]`,
 * `filter[chain_ids][]`, `filter[chain_ids][0]`), with the parameter it stands for. Such keys are
 * no parameter of the API: lists are one key with comma-separated values.
 */
export function arrayFormKey(query: Record<string, unknown>, parameters: readonly string[]): { key: string; parameter: string } | undefined {
  for (const key of Object.keys(query)) {
    if (parameters.includes(key)) continue;
    const parameter = parameters.find((known) => key.startsWith(`${known}[`));
    if (parameter) return { key, parameter };
  }
  return undefined;
}
