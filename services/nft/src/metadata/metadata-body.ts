import type { UriContext } from './metadata-uri.js';
import type { MetadataOutcome } from './nft-metadata.js';
import { parseMetadata } from './parse-metadata.js';

/**
 * From the bytes of a token URI's document, however they were fetched, to an outcome. Every
 * failure here is permanent: the same bytes would fail the same way on the next attempt.
 */

/**
 * JSON-ish types, and text/plain, which IPFS gateways and static hosts serve for files without
 * an extension. No type at all, or S3's default octet-stream for uploads that named none, is
 * taken on trust; the body must parse either way.
 */
export function acceptsContentType(contentType: string | undefined): boolean {
  const type = mediaTypeEssence(contentType);
  return (
    type === '' ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'text/plain' ||
    type === 'application/octet-stream' ||
    type === 'binary/octet-stream'
  );
}

/** `Application/JSON; charset=utf-8` -> `application/json`. */
export function mediaTypeEssence(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function metadataFromBody(contentType: string | undefined, body: Buffer, context: UriContext): MetadataOutcome {
  if (!acceptsContentType(contentType)) return { kind: 'unusable', reason: `content type ${mediaTypeEssence(contentType)} is not JSON` };
  let json: unknown;
  try {
    // A byte-order mark is common in files saved by Windows editors; JSON.parse refuses it.
    json = JSON.parse(new TextDecoder('utf-8', { ignoreBOM: false }).decode(body));
  } catch {
    return { kind: 'unusable', reason: 'not JSON' };
  }
  const metadata = parseMetadata(json, context);
  return metadata === undefined ? { kind: 'unusable', reason: 'not a JSON object' } : { kind: 'fetched', metadata };
}
