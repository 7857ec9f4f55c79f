import { dataUriMediaType, isDataUri, parseDataUri } from './data-uri.js';

/**
 * Turns a token URI, as a contract returns it, into where its metadata is: inline (data:) or at
 * an http(s) URL, IPFS going through the configured gateway. Anything else cannot be fetched.
 */
export type MetadataSource = { kind: 'data'; mediaType: string; body: Buffer } | { kind: 'http'; url: string } | { kind: 'unusable'; reason: string };

/** Where URLs come from and which token they describe, for rewriting them. */
export interface UriContext {
  /** Prefix an IPFS path is appended to, e.g. `https://ipfs.io/ipfs/`. */
  ipfsGateway: string;
  tokenId: bigint;
}

export function resolveMetadataUri(uri: string, context: UriContext): MetadataSource {
  const text = trimUri(uri);
  if (text === '') return { kind: 'unusable', reason: 'empty URI' };
  if (isDataUri(text)) {
    const data = parseDataUri(text);
    return data === undefined ? { kind: 'unusable', reason: 'malformed data: URI' } : { kind: 'data', ...data };
  }
  const scheme = schemeOf(text);
  if (scheme === undefined) return { kind: 'unusable', reason: 'not an absolute URI' };
  const url = locate(text, scheme, context);
  if (url !== undefined) return { kind: 'http', url };
  return {
    kind: 'unusable',
    reason: scheme === 'ipfs' || scheme === 'http' || scheme === 'https' ? `malformed ${scheme}: URI` : `unsupported URI scheme ${scheme}:`,
  };
}

/**
 * A media or link URL found inside metadata, made fetchable the same way (data: kept as is);
 * undefined for anything a client should not be handed (javascript:, file:, junk).
 */
export function resolveContentUrl(value: string, context: UriContext): string | undefined {
  const text = trimUri(value);
  if (isDataUri(text)) return dataUriMediaType(text) === undefined ? undefined : text;
  const scheme = schemeOf(text);
  return scheme === undefined ? undefined : locate(text, scheme, context);
}

/** EIP-1155: a client replaces `{id}` with the token id as 64 lowercase hex digits, no 0x. */
export function substituteTokenId(uri: string, tokenId: bigint): string {
  if (!uri.includes('{id}')) return uri;
  // Token ids are uint256; asUintN keeps a caller's negative bigint from printing a minus sign.
  return uri.replaceAll('{id}', BigInt.asUintN(256, tokenId).toString(16).padStart(64, '0'));
}

/** `ipfs://<cid>/path` and the older `ipfs://ipfs/<cid>/path` as a gateway URL. */
export function ipfsToGateway(uri: string, gateway: string): string | undefined {
  const path = uri
    .replace(/^ipfs:\/\//i, '')
    .replace(/^ipfs\//i, '')
    .replace(/^\/+/, '');
  if (path === '') return undefined;
  return httpUrl(`${gateway.endsWith('/') ? gateway : `${gateway}/`}${path}`);
}

function locate(text: string, scheme: string, context: UriContext): string | undefined {
  const uri = substituteTokenId(text, context.tokenId);
  if (scheme === 'ipfs') return ipfsToGateway(uri, context.ipfsGateway);
  if (scheme === 'http' || scheme === 'https') return httpUrl(uri);
  return undefined;
}

function httpUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function schemeOf(text: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
}

// Contracts that build URIs from fixed-size strings leave NUL padding; whitespace is a typo.
function trimUri(text: string): string {
  return text.replace(/^[\s\0]+|[\s\0]+$/g, '');
}
