/**
 * What the nft service keeps of a token's off-chain metadata, whatever shape its JSON came in,
 * and what one attempt to fetch it came to. The caller (a background worker) schedules retries,
 * so the outcome says only whether trying again could help.
 */

export interface ContentItem {
  url: string;
  /** A MIME type, or '' when neither a data: URL nor the file extension says. */
  contentType: string;
}

export interface NftMetadata {
  name: string;
  description: string;
  tags: string[];
  content: { preview?: ContentItem; detail?: ContentItem; audio?: ContentItem; video?: ContentItem };
  attributes: { key: string; value: string }[];
  externalLinks: { url: string; type: string; name: string }[];
}

export type MetadataOutcome =
  | { kind: 'fetched'; metadata: NftMetadata }
  /** Transient: timeout, network error, host not resolving, 5xx, 429. */
  | { kind: 'retry'; reason: string }
  /**
   * Permanent: 404 and other 4xx, refused address, body over the cap, wrong content type,
   * not JSON, unsupported scheme, empty URI.
   */
  | { kind: 'unusable'; reason: string };
