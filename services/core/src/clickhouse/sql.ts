/**
 * The one way values enter ClickHouse SQL. ClickHouse 18.16 has no server-side query parameters,
 * so every value is rendered as a literal here and nowhere else; identifiers are checked, never
 * quoted from arbitrary input.
 */

export type SqlValue = string | number | bigint | boolean | Date | null | readonly SqlValue[] | SqlFragment;

const fragmentBrand: unique symbol = Symbol('SqlFragment');

export interface SqlFragment {
  readonly [fragmentBrand]: true;
  readonly text: string;
}

function fragment(text: string): SqlFragment {
  return { [fragmentBrand]: true, text };
}

function isFragment(value: unknown): value is SqlFragment {
  return typeof value === 'object' && value !== null && fragmentBrand in value;
}

/**
 * Escapes a string for a single-quoted ClickHouse literal. Backslash and quote are escaped, and
 * every control character (NUL included) becomes a `\xHH` escape, so no byte of the value can end
 * the literal or the statement.
 */
export function escapeString(value: string): string {
  let escaped = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '\\') escaped += '\\\\';
    else if (char === "'") escaped += "\\'";
    else if (code < 0x20 || code === 0x7f) escaped += `\\x${code.toString(16).padStart(2, '0')}`;
    else escaped += char;
  }
  return `'${escaped}'`;
}

export function literal(value: SqlValue): string {
  if (isFragment(value)) return value.text;
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'string':
      return escapeString(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? '1' : '0';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot bind non-finite number ${value} to SQL`);
      return Object.is(value, -0) ? '0' : String(value);
    case 'object':
      if (value instanceof Date) {
        const ms = value.getTime();
        if (Number.isNaN(ms)) throw new TypeError('cannot bind an invalid Date to SQL');
        return `toDateTime(${Math.floor(ms / 1000)})`;
      }
      return `[${value.map(literal).join(', ')}]`;
    default:
      throw new TypeError(`cannot bind a value of type ${typeof value} to SQL`);
  }
}

/** A table, database or column name; anything but a plain identifier is refused. */
export function identifier(name: string): SqlFragment {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`invalid SQL identifier: ${JSON.stringify(name)}`);
  return fragment(`\`${name}\``);
}

/** Joins fragments, e.g. optional WHERE conditions. */
export function join(parts: readonly SqlFragment[], separator: string): SqlFragment {
  return fragment(parts.map((part) => part.text).join(separator));
}

/** Tagged template: `sql\`SELECT * FROM t WHERE a = ${value}\`` renders every value with `literal`. */
export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): SqlFragment {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += literal(value) + (strings[index + 1] ?? '');
  });
  return fragment(text);
}

/** ClickHouse 18.16 refuses an array on the right of IN; a parenthesised list is what it takes. */
export function inList(values: readonly SqlValue[]): SqlFragment {
  if (values.length === 0) throw new TypeError('an IN list needs at least one value');
  return sql`(${join(
    values.map((value) => sql`${value}`),
    ', ',
  )})`;
}

/**
 * A statement from the repository's own migration files (infra/clickhouse/migrations), which hold
 * no values at all. Never pass text that came from a request, a message or a chain.
 */
export function migrationStatement(text: string): SqlFragment {
  return fragment(text);
}
