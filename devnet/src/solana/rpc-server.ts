// A Solana JSON-RPC endpoint over the ledger (node:http, JSON-RPC 2.0, single and batch
// requests) that also produces the slots: every `slotIntervalMs` it seals the open block at
// max(previous block time, now), so a transaction sent over RPC lands in the next block.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SolanaLedger } from './ledger-types.js';
import { stringifyJson } from './json.js';
import { accountMethods } from './rpc-methods-accounts.js';
import { blockMethods } from './rpc-methods-blocks.js';
import { chainMethods } from './rpc-methods-chain.js';
import { sendMethods } from './rpc-methods-send.js';
import { RpcError, internalError, invalidRequest, methodNotFound, parseError } from './rpc-errors.js';
import { parseJsonExact } from './rpc-params.js';
import type { RpcContext, RpcMethod } from './rpc-context.js';

export interface SolanaRpcServerOptions {
  ledger: SolanaLedger;
  port: number;
  host?: string;
  /** Milliseconds between sealed blocks (default 400); 0 seals nothing on its own. */
  slotIntervalMs?: number;
  /** Wall clock in milliseconds (tests pin it). */
  now?: () => number;
  /** Called with errors that are not the client's (a method throwing unexpectedly). */
  onError?: (error: unknown) => void;
}

export interface SolanaRpcServer {
  url: string;
  /** Seals the open block now, as the slot timer does. */
  sealNow(): void;
  close(): Promise<void>;
}

/** MAX_REQUEST_BODY_SIZE of agave's RPC service. */
const maxRequestBodyBytes = 50 * 1024;

export const rpcMethods: Record<string, RpcMethod> = { ...chainMethods, ...blockMethods, ...accountMethods, ...sendMethods };

type Envelope = Record<string, unknown>;

function errorEnvelope(error: RpcError, id: unknown): Envelope {
  return { jsonrpc: '2.0', error: error.toJson(), id };
}

/** One request object: its response envelope, or undefined for a notification (no id). */
async function handleOne(request: unknown, context: RpcContext, onError: (error: unknown) => void): Promise<Envelope | undefined> {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return errorEnvelope(invalidRequest(), null);
  const { jsonrpc, method, params } = request as Record<string, unknown>;
  const hasId = 'id' in request;
  const id = (request as Record<string, unknown>).id ?? null;
  if (jsonrpc !== '2.0' || typeof method !== 'string') return errorEnvelope(invalidRequest(), id);
  const handler = Object.hasOwn(rpcMethods, method) ? rpcMethods[method] : undefined;
  let envelope: Envelope;
  try {
    if (!handler) throw methodNotFound();
    envelope = { jsonrpc: '2.0', result: await handler(params, context), id };
  } catch (error) {
    if (!(error instanceof RpcError)) onError(error);
    envelope = errorEnvelope(error instanceof RpcError ? error : internalError(), id);
  }
  return hasId ? envelope : undefined;
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxRequestBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function reply(response: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8'): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

export async function handleRpcBody(body: string, context: RpcContext, onError: (error: unknown) => void = () => {}): Promise<string> {
  let parsed: unknown;
  try {
    parsed = parseJsonExact(body);
  } catch {
    return stringifyJson(errorEnvelope(parseError(), null));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return stringifyJson(errorEnvelope(invalidRequest(), null));
    const responses: Envelope[] = [];
    for (const request of parsed) {
      const envelope = await handleOne(request, context, onError);
      if (envelope) responses.push(envelope);
    }
    return responses.length > 0 ? stringifyJson(responses) : '';
  }
  const envelope = await handleOne(parsed, context, onError);
  return envelope ? stringifyJson(envelope) : '';
}

export async function startSolanaRpcServer(options: SolanaRpcServerOptions): Promise<SolanaRpcServer> {
  const { ledger } = options;
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  const onError = options.onError ?? ((error: unknown) => process.stderr.write(`solana rpc: ${String((error as Error)?.stack ?? error)}\n`));
  const context: RpcContext = { ledger };

  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/health') return reply(response, 200, 'ok', 'text/plain; charset=utf-8');
    if (request.method !== 'POST') return reply(response, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain; charset=utf-8');
    readBody(request)
      .then(async (body) => {
        if (body === undefined) return reply(response, 413, 'Request body too large', 'text/plain; charset=utf-8');
        reply(response, 200, await handleRpcBody(body, context, onError));
      })
      .catch((error: unknown) => {
        onError(error);
        if (!response.headersSent) reply(response, 500, 'Internal error', 'text/plain; charset=utf-8');
      });
  });

  const sealNow = () => {
    const previous = ledger.head()?.blockTime ?? 0;
    ledger.seal(Math.max(previous, Math.floor(now() / 1000)));
  };
  const interval = options.slotIntervalMs ?? 400;
  const timer =
    interval > 0
      ? setInterval(() => {
          try {
            sealNow();
          } catch (error) {
            onError(error);
          }
        }, interval)
      : undefined;
  timer?.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    sealNow,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (timer) clearInterval(timer);
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
