// JSON text as a Solana node writes it (serde_json): u64 values are plain JSON numbers of any
// size (kit parses them into bigint), f64 values are written the way Rust's ryu writes them
// (`1.0`, `0.01`, `1e-7`), and absent optional fields are simply not there.

/** An f64 the node writes with serde_json (ryu): integral values keep a `.0`. */
export class F64 {
  constructor(readonly value: number) {}
}

export function f64(value: number): F64 {
  return new F64(value);
}

/**
 * Rust's ryu formatting of a finite f64: the shortest round-trip digits (the same digits as
 * JavaScript's), laid out as ryu does: plain decimals while the decimal point falls within
 * [-5, 16] digits of the first digit, scientific (`1e-7`, `1.5e17`) outside; `.0` on integers.
 */
export function formatRyu(value: number): string {
  if (!Number.isFinite(value)) return 'null'; // serde_json writes NaN and infinities as null
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const negative = value < 0;
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText); // value = d.ddd x 10^exponent
  const length = digits.length;
  const k = exponent - (length - 1); // value = digits x 10^k
  const kk = length + k; // position of the decimal point from the first digit
  let text: string;
  if (k >= 0 && kk <= 16) text = `${digits}${'0'.repeat(k)}.0`;
  else if (kk > 0 && kk <= 16) text = `${digits.slice(0, kk)}.${digits.slice(kk)}`;
  else if (kk > -5 && kk <= 0) text = `0.${'0'.repeat(-kk)}${digits}`;
  else if (length === 1) text = `${digits}e${kk - 1}`;
  else text = `${digits[0]}.${digits.slice(1)}e${kk - 1}`;
  return negative ? `-${text}` : text;
}

/** Serialises a response: bigint as raw digits, F64 as ryu, undefined members left out. */
export function stringifyJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) return 'null';
      return Number.isInteger(value) ? BigInt(value).toString() : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    case 'object':
      break;
    default:
      throw new TypeError(`cannot serialise a ${typeof value}`);
  }
  if (value instanceof F64) return formatRyu(value.value);
  if (Array.isArray(value)) return `[${value.map((item) => stringifyJson(item === undefined ? null : item)).join(',')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}:${stringifyJson(member)}`);
  }
  return `{${members.join(',')}}`;
}
