import { parseArgs } from 'node:util';
import { serviceAddressEnv } from '@wallet-api/core/config';
import { createLogger } from '@wallet-api/core/logger';
import { declareApi } from '../app.js';
import { createBackends } from '../grpc/backends.js';
import type { OpenApiDocument } from '../openapi/document.js';
import { UsageError } from './keys-create.js';

/** The document's `servers` entry when none is given: the gateway's default PUBLIC_URL. */
export const defaultDocumentUrl = 'http://127.0.0.1:8080';

export const openApiUsage = `usage: wallet-api openapi [--out <file>] [--public-url <url>]
  Prints (or writes to <file>) the OpenAPI document that /v1/openapi.json serves, built from the
  route declarations alone: no database, Redis or service is needed. The document's server is
  <url> (default ${defaultDocumentUrl}).`;

export interface OpenApiArgs {
  out?: string;
  publicUrl: string;
}

/** Parses the arguments that follow `openapi`. */
export function parseOpenApiArgs(args: string[]): OpenApiArgs {
  let values: { out?: string; 'public-url'?: string };
  try {
    ({ values } = parseArgs({ args, strict: true, allowPositionals: false, options: { out: { type: 'string' }, 'public-url': { type: 'string' } } }));
  } catch (error) {
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
  const publicUrl = values['public-url'] ?? defaultDocumentUrl;
  if (!URL.canParse(publicUrl)) throw new UsageError(`--public-url ${JSON.stringify(publicUrl)} is not a URL`);
  return { ...(values.out !== undefined ? { out: values.out } : {}), publicUrl };
}

/**
 * The gateway's OpenAPI document, declared exactly as the running gateway declares it. The
 * backends are real clients at their default addresses, never called: declaring a route calls
 * nothing and gRPC channels connect on their first call, so no connection is opened.
 */
export function buildGatewayDocument(publicUrl: string): OpenApiDocument {
  const addresses = serviceAddressEnv.parse({});
  const backends = createBackends({
    referenceData: addresses.REFERENCE_DATA_GRPC_ADDRESS,
    indexer: addresses.INDEXER_GRPC_ADDRESS,
    positions: addresses.POSITIONS_GRPC_ADDRESS,
    chart: addresses.CHART_GRPC_ADDRESS,
    pnl: addresses.PNL_GRPC_ADDRESS,
    nft: addresses.NFT_GRPC_ADDRESS,
    subscription: addresses.SUBSCRIPTION_GRPC_ADDRESS,
  });
  try {
    return declareApi({ backends, publicUrl, logger: createLogger('gateway', 'warn'), checkResponses: false }).openApiDocument;
  } finally {
    backends.close();
  }
}

/** The document as the client generator reads it: stable key order as declared, two-space JSON, final newline. */
export function formatDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
