/**
 * Reads RFC 2397 data: URIs, which many contracts use to keep token metadata (and SVG images)
 * entirely on chain: `data:application/json;base64,eyJ...`, `data:application/json,%7B...`,
 * and the common non-standard `data:application/json;utf8,{"name":...}`.
 */
export interface DataUri {
  /** Lowercase type/subtype without parameters; text/plain when the URI names none, as RFC 2397 says. */
  mediaType: string;
  body: Buffer;
}

interface DataUriHeader {
  mediaType: string;
  base64: boolean;
  /** Where the data starts, just past the first comma. */
  dataStart: number;
}

export function isDataUri(uri: string): boolean {
  return /^data:/i.test(uri);
}

function parseHeader(uri: string): DataUriHeader | undefined {
  if (!isDataUri(uri)) return undefined;
  const comma = uri.indexOf(',');
  if (comma < 0) return undefined;
  const [type = '', ...parameters] = uri
    .slice('data:'.length, comma)
    .split(';')
    .map((part) => part.trim().toLowerCase());
  return { mediaType: type === '' ? 'text/plain' : type, base64: parameters.includes('base64'), dataStart: comma + 1 };
}

/** The media type alone, without decoding what may be a large body. */
export function dataUriMediaType(uri: string): string | undefined {
  return parseHeader(uri)?.mediaType;
}

export function parseDataUri(uri: string): DataUri | undefined {
  const header = parseHeader(uri);
  if (header === undefined) return undefined;
  const data = percentDecode(uri.slice(header.dataStart));
  // Base64 in a URI may have its `+`, `/` and `=` percent-encoded, hence decoding it first.
  const body = header.base64 ? Buffer.from(data.toString('latin1').replace(/\s+/g, ''), 'base64') : data;
  return { mediaType: header.mediaType, body };
}

/**
 * WHATWG percent-decoding: a `%` not followed by two hex digits is kept as written. Raw JSON in
 * a `;utf8,` URI often holds a bare `%` ("100% on chain"), on which decodeURIComponent throws.
 */
export function percentDecode(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if (byte === 0x25 && isHexDigit(bytes[i + 1]) && isHexDigit(bytes[i + 2])) {
      out[length++] = parseInt(bytes.subarray(i + 1, i + 3).toString('latin1'), 16);
      i += 2;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}
