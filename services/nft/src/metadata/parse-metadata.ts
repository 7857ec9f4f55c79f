import { mediaTypeOf } from './media-type.js';
import { resolveContentUrl, type UriContext } from './metadata-uri.js';
import type { ContentItem, NftMetadata } from './nft-metadata.js';

/**
 * Reads OpenSea-style token metadata JSON (the shape ERC-721 and ERC-1155 metadata mostly take)
 * into NftMetadata. Metadata is written by anyone, so nothing here throws: a field of the wrong
 * type is dropped, strings are trimmed and capped so one token cannot bloat a row or a response.
 */

// Caps on what one token may put in a stored row or an API response.
export const METADATA_LIMITS = {
  name: 200,
  description: 5_000,
  attributes: 100,
  attributeKey: 200,
  attributeValue: 1_000,
  tags: 50,
  tag: 100,
} as const;

/** undefined when the JSON is not an object, the one shape nothing can be read from. */
export function parseMetadata(json: unknown, context: UriContext): NftMetadata | undefined {
  if (!isObject(json)) return undefined;
  const image = imageOf(json, context);
  const animation = contentItem(json.animation_url, context);
  const content: NftMetadata['content'] = {};
  if (image !== undefined) {
    content.preview = image;
    content.detail = image;
  }
  if (animation !== undefined) {
    if (animation.contentType.startsWith('video/')) content.video = animation;
    else if (animation.contentType.startsWith('audio/')) content.audio = animation;
    // Neither (HTML, a 3D model, an image): the richer view replaces the still image.
    else content.detail = animation;
  }
  return {
    name: text(json.name, METADATA_LIMITS.name) ?? '',
    description: text(json.description, METADATA_LIMITS.description) ?? '',
    tags: tagsOf(json),
    content,
    attributes: attributesOf(json.attributes),
    externalLinks: externalLinksOf(json.external_url, context),
  };
}

function imageOf(json: Record<string, unknown>, context: UriContext): ContentItem | undefined {
  return contentItem(json.image, context) ?? contentItem(json.image_url, context) ?? svgItem(json.image_data) ?? contentItem(json.image_data, context);
}

function contentItem(value: unknown, context: UriContext): ContentItem | undefined {
  if (typeof value !== 'string') return undefined;
  const url = resolveContentUrl(value, context);
  return url === undefined ? undefined : { url, contentType: mediaTypeOf(url) };
}

/** image_data holds raw SVG markup (OpenSea); clients want a URL, so it becomes a data: URL. */
function svgItem(value: unknown): ContentItem | undefined {
  if (typeof value !== 'string') return undefined;
  const markup = value.trim();
  if (!/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype[^>]*>\s*)?<svg[\s>]/i.test(markup)) return undefined;
  const contentType = 'image/svg+xml';
  return { url: `data:${contentType};base64,${Buffer.from(markup, 'utf8').toString('base64')}`, contentType };
}

/** `[{trait_type, value}]`, or the `{key: value}` form some collections use instead. */
function attributesOf(value: unknown): NftMetadata['attributes'] {
  const pairs: [unknown, unknown][] = Array.isArray(value)
    ? value.filter(isObject).map((entry) => [entry.trait_type, entry.value])
    : isObject(value)
      ? Object.entries(value)
      : [];
  const attributes: NftMetadata['attributes'] = [];
  for (const [rawKey, rawValue] of pairs) {
    if (attributes.length === METADATA_LIMITS.attributes) break;
    const key = text(scalar(rawKey), METADATA_LIMITS.attributeKey);
    const shown = text(scalar(rawValue), METADATA_LIMITS.attributeValue);
    if (key === undefined || key === '' || shown === undefined) continue;
    attributes.push({ key, value: shown });
  }
  return attributes;
}

function tagsOf(json: Record<string, unknown>): string[] {
  const tags = new Set<string>();
  for (const list of [json.tags, json.keywords]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const tag = text(entry, METADATA_LIMITS.tag);
      if (tag !== undefined && tag !== '' && tags.size < METADATA_LIMITS.tags) tags.add(tag);
    }
  }
  return [...tags];
}

function externalLinksOf(value: unknown, context: UriContext): NftMetadata['externalLinks'] {
  if (typeof value !== 'string') return [];
  const url = resolveContentUrl(value, context);
  // A website link is for a person to open; an inline data: document is not one.
  if (url === undefined || !/^https?:/.test(url)) return [];
  return [{ url, type: 'website', name: 'Website' }];
}

/** Attribute values are shown as text; numbers and booleans read naturally, objects do not. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/** Trimmed and capped by code point (not UTF-16 unit, which could split an emoji); NUL removed, as PostgreSQL text refuses it. */
function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.replaceAll('\0', '').trim();
  if (trimmed.length <= max) return trimmed;
  return Array.from(trimmed).slice(0, max).join('').trim();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
