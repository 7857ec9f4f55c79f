import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isHostedCollection, tokenImage, tokenMetadata } from './metadata.js';

export interface MetadataServer {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:18600/`. */
  url: string;
  close(): Promise<void>;
}

export interface MetadataServerOptions {
  /** 0 picks a free port. */
  port: number;
}

/** Token ids are positive decimals, as the collections put them in their URIs. */
const tokenPath = /^\/([a-z0-9-]+)\/([1-9][0-9]{0,77})\.(json|svg)$/;

/**
 * Serves `/<collection>/<tokenId>.json` (metadata) and `/<collection>/<tokenId>.svg` (its image) for
 * the collections whose token URIs point at it, on 127.0.0.1. Content depends only on the
 * collection, the id and the server's URL, so it is the same on every run.
 */
export async function startMetadataServer(options: MetadataServerOptions): Promise<MetadataServer> {
  let url = '';
  const respond = (response: ServerResponse, status: number, type: string, body: string) => {
    response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'public, max-age=3600' });
    response.end(body);
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', url).pathname;
    const match = tokenPath.exec(path);
    const collection = match?.[1] ?? '';
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !match || !isHostedCollection(collection)) {
      respond(response, 404, 'application/json', JSON.stringify({ error: 'not found' }));
      return;
    }
    const tokenId = BigInt(match[2]!);
    if (match[3] === 'json') respond(response, 200, 'application/json', JSON.stringify(tokenMetadata(collection, tokenId, url)));
    else respond(response, 200, 'image/svg+xml', tokenImage(collection, tokenId));
  };
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
