// Compares the shape of two JSON values: the same keys, the same JSON types, the same nesting.
// Used to hold the RPC server's responses against the example responses of Solana's RPC docs.
// Paths read like `result.value[].account.data`; `[]` stands for any element of an array.

export interface ShapeOptions {
  /** Paths where the example shows null but a value is valid (or the other way round). */
  nullable?: readonly string[];
  /** Keys the example leaves out that the node writes, by path, with the reason. */
  extraKeys?: Readonly<Record<string, string>>;
}

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'boolean' || type === 'number' || type === 'string' || type === 'object') return type;
  throw new TypeError(`not JSON: ${type}`);
}

/** Arrays whose elements all have one kind (and objects one key set) are compared element by element against the first. */
function homogeneous(values: readonly unknown[]): boolean {
  const signature = (value: unknown) =>
    kindOf(value) === 'object'
      ? `object:${Object.keys(value as object)
          .sort()
          .join(',')}`
      : kindOf(value);
  return values.every((value) => signature(value) === signature(values[0]));
}

/** The mismatches between `expected` (the documented example) and `actual`, empty when the shapes agree. */
export function compareShape(expected: unknown, actual: unknown, options: ShapeOptions = {}, path = ''): string[] {
  const here = path || '(root)';
  const expectedKind = kindOf(expected);
  const actualKind = kindOf(actual);
  if (expectedKind !== actualKind) {
    if ((expectedKind === 'null' || actualKind === 'null') && options.nullable?.includes(path)) return [];
    return [`${here}: expected ${expectedKind}, got ${actualKind}`];
  }
  if (expectedKind === 'array') {
    const expectedItems = expected as unknown[];
    const actualItems = actual as unknown[];
    if (expectedItems.length === 0) return [];
    if (actualItems.length === 0) return [`${here}: expected elements like the example's, got an empty array`];
    if (homogeneous(expectedItems)) return actualItems.flatMap((item) => compareShape(expectedItems[0], item, options, `${path}[]`));
    if (actualItems.length !== expectedItems.length) return [`${here}: expected ${expectedItems.length} elements, got ${actualItems.length}`];
    return expectedItems.flatMap((item, index) => compareShape(item, actualItems[index], options, `${path}[]`));
  }
  if (expectedKind !== 'object') return [];
  const expectedObject = expected as Record<string, unknown>;
  const actualObject = actual as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(expectedObject)) {
    const child = path ? `${path}.${key}` : key;
    if (!(key in actualObject)) problems.push(`${child}: missing`);
    else problems.push(...compareShape(expectedObject[key], actualObject[key], options, child));
  }
  for (const key of Object.keys(actualObject)) {
    const child = path ? `${path}.${key}` : key;
    if (!(key in expectedObject) && options.extraKeys?.[child] === undefined) problems.push(`${child}: not in the example`);
  }
  return problems;
}
