import fc from 'fast-check';

// What hostile clients send, as fast-check arbitraries: values seen to break services (NUL bytes,
// 78-digit amounts, CR/LF, lone surrogates, prototype keys, deep JSON), and random text around them.

const known = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '\t',
  '\u001b[31m',
  '9'.repeat(78),
  `-${'9'.repeat(78)}`,
  '1e309',
  'NaN',
  'Infinity',
  '-1',
  '0x10',
  '0',
  '1.5',
  '00000000000000000000001',
  '../../etc/passwd',
  '%00',
  '%E0%A4%A',
  '__proto__',
  'constructor',
  '{"a":1}',
  '[]',
  'null',
  'true',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '\ud800',
  '\uffff',
  '😀'.repeat(10),
  'ethereum,,',
  ',',
  'ethereum,'.repeat(200),
  '0x0000000000000000000000000000000000000000',
  `0x${'f'.repeat(40)}`,
  `0x${'F'.repeat(64)}`,
  '1'.repeat(44),
  'a'.repeat(5_000),
  'ethereum:0x0000000000000000000000000000000000000000:1',
];

/** The values that broke a service before: each is sent in every parameter, before the random ones. */
export const killerValues = ['\u0000', '9'.repeat(78), '\r\nX-Injected: 1', '\ud800', 'a'.repeat(5_000)];

/** A string any client could put in a URL or a JSON body. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...known) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{60,100}$/) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom('ethereum', 'base', 'solana', 'x', '', '\u0000', '0x1'), { maxLength: 6 }).map((parts) => parts.join(',')) },
);

/** Header values must be Latin-1 without CR, LF or NUL to be sent at all. */
export const hostileHeader: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'testnet', 'mainnet', 'TESTNET', 'a'.repeat(4_000), '\u00ff\u00fe', 'testnet, mainnet', ' testnet '),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
);

/** Any JSON value, prototype keys and deep nesting among them. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      0,
      -1,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      [],
      {},
      { __proto__: { admin: true } },
      { constructor: { prototype: { x: 1 } } },
    ),
  },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 120 }) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 2_000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown) },
);

/** Raw request bodies that are not the JSON they claim to be, or barely are. */
export const hostileRawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    'null',
    '"text"',
    '[]',
    '\u0000',
    '{"__proto__":{"x":1}}',
    '{"a":1,"a":2}',
    '['.repeat(10_000),
    `{"addresses":${'['.repeat(5_000)}`,
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** UTF-8 percent-encoding of every byte outside the unreserved set; lone surrogates become U+FFFD, as a browser sends them. */
export function percentEncode(value: string): string {
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** True when a log line holds a byte no log line should: control characters other than the newline ending it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
export const hasControlBytes = (line: string) => /[\u0000-\u0009\u000b-\u001f\u007f]/.test(line);
