import { Agent, request, type Dispatcher } from 'undici';
import { createAddressPins, createOutboundUrlGuard, untilAborted, type AllowRule, type ResolveHost } from '@wallet-api/core/outbound';
import { acceptsContentType, mediaTypeEssence, metadataFromBody } from './metadata-body.js';
import { resolveMetadataUri, type UriContext } from './metadata-uri.js';
import type { MetadataOutcome } from './nft-metadata.js';

/**
 * Fetches a token's metadata from the URI its contract names, once; the background worker that
 * calls it decides when to try again. Token URIs are chosen by whoever deployed the contract, so
 * every request, and every redirect hop, goes only to addresses the outbound guard approved.
 */
export interface MetadataFetcher {
  fetch(uri: string, tokenId: bigint): Promise<MetadataOutcome>;
  close(): Promise<void>;
}

export interface MetadataFetcherOptions {
  /** Prefix for ipfs:// URIs, e.g. `https://ipfs.io/ipfs/`; a private gateway must be allow-listed. */
  ipfsGateway: string;
  /** Operator exceptions to the guard, from `parseAllowList`. */
  allow: readonly AllowRule[];
  /** Deadline for one fetch: every hop's resolving, connecting and reading the whole body. */
  timeoutMs: number;
  /** Larger documents are unusable; real metadata is a few KB, on-chain SVG in it rarely past 100 KB. */
  maxBytes: number;
  maxRedirects?: number;
  /** DNS for the guard; tests answer from a table. */
  lookup?: ResolveHost;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// A body read to its end lets the connection be reused; a long error page is not worth it.
const DRAINED_BYTES = 64 * 1024;
const HEADERS = {
  // Not application/json: IPFS gateways answer that with the DAG-JSON of the file's blocks, not the file.
  accept: '*/*',
  'user-agent': 'wallet-api-nft-metadata/1',
};

const retry = (reason: string): MetadataOutcome => ({ kind: 'retry', reason });
const unusable = (reason: string): MetadataOutcome => ({ kind: 'unusable', reason });

export function createMetadataFetcher(options: MetadataFetcherOptions): MetadataFetcher {
  const { ipfsGateway, allow, timeoutMs, maxBytes, maxRedirects = 3, lookup } = options;
  if (!/^https?:\/\/[^/]/i.test(ipfsGateway)) throw new Error(`ipfsGateway "${ipfsGateway}" is not an http(s) URL`);
  // Plain http stays allowed for public hosts: much NFT metadata is served without TLS, and we send nothing secret.
  const guard = createOutboundUrlGuard({ allow, lookup, subject: 'metadata URL', allowPublicHttp: true });
  const pins = createAddressPins();
  const agent = new Agent({ connect: { lookup: pins.lookup } });
  const tooLarge = unusable(`body larger than ${maxBytes} bytes`);

  async function fetchHttp(start: string, context: UriContext, signal: AbortSignal): Promise<MetadataOutcome> {
    let url = start;
    for (let hop = 0; ; hop += 1) {
      const check = await untilAborted(guard.check(url), signal);
      if (!check.ok) return check.retryable ? retry(check.reason) : unusable(check.reason);
      const release = pins.pin(check.url.hostname, check.addresses);
      try {
        const { statusCode: status, headers, body } = await request(check.url, { dispatcher: agent, method: 'GET', headers: HEADERS, signal });
        if (REDIRECT_STATUSES.has(status)) {
          await drain(body, signal);
          const location = headerValue(headers.location);
          if (location === undefined) return unusable(`HTTP ${status} without a location`);
          if (hop >= maxRedirects) return unusable(`more than ${maxRedirects} redirects`);
          const next = resolveLocation(location, check.url);
          if (next === undefined) return unusable(`HTTP ${status} to an invalid location`);
          url = next;
          continue;
        }
        if (status < 200 || status >= 300) {
          await drain(body, signal);
          return isTransient(status) ? retry(`HTTP ${status}`) : unusable(`HTTP ${status}`);
        }
        const contentType = headerValue(headers['content-type']);
        // Refused before reading: a token URI pointing straight at an image should not cost its download.
        if (!acceptsContentType(contentType)) {
          discard(body);
          return unusable(`content type ${mediaTypeEssence(contentType)} is not JSON`);
        }
        if (Number(headerValue(headers['content-length'])) > maxBytes) {
          discard(body);
          return tooLarge;
        }
        const bytes = await readCapped(body, maxBytes);
        return bytes === undefined ? tooLarge : metadataFromBody(contentType, bytes, context);
      } finally {
        release();
      }
    }
  }

  return {
    async fetch(uri, tokenId) {
      const context: UriContext = { ipfsGateway, tokenId };
      const source = resolveMetadataUri(uri, context);
      switch (source.kind) {
        case 'unusable':
          return source;
        case 'data':
          return source.body.length > maxBytes ? tooLarge : metadataFromBody(source.mediaType, source.body, context);
        case 'http': {
          const signal = AbortSignal.timeout(timeoutMs);
          try {
            return await fetchHttp(source.url, context, signal);
          } catch (error) {
            return retry(signal.aborted ? `timed out after ${timeoutMs} ms` : describeNetworkError(error));
          }
        }
      }
    },
    close: () => agent.close(),
  };
}

/** 408 and 429 say "not now"; 5xx is the server's trouble, not the document's. */
function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function resolveLocation(location: string, base: URL): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The whole body, or undefined as soon as it passes maxBytes (then the rest is never read). */
async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Reads a body we do not need so the connection can be reused; a long or failing one is just dropped. */
async function drain(body: Dispatcher.ResponseData['body'], signal: AbortSignal): Promise<void> {
  try {
    await body.dump({ limit: DRAINED_BYTES, signal });
  } catch {
    discard(body);
  }
}

/** Drops a body unread; undici reports that as an abort error, which is just what we asked for. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/** One line for the worker's log, keeping the system error code (ECONNREFUSED) where there is one. */
function describeNetworkError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeNetworkError).join('; ');
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message || error.name;
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
