import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import {
  Metadata,
  credentials,
  status,
  type CallOptions,
  type ChannelCredentials,
  type Client,
  type ClientOptions,
  type ClientReadableStream,
  type ClientUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { grpcClientDuration, secondsSince } from '../metrics/platform-metrics.js';
import { injectTraceContext } from '../telemetry/index.js';
import { maxMessageBytes, statusName } from './server.js';

type ClientConstructor<C> = new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>) => C;

export function createGrpcClient<C extends Client>(Ctor: ClientConstructor<C>, address: string): C {
  return new Ctor(address, credentials.createInsecure(), {
    // Reconnect quickly after a service restart instead of grpc's default backoff of up to 2 minutes.
    'grpc.max_reconnect_backoff_ms': 2_000,
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': maxMessageBytes,
    // HTTP/2's default 64 KiB receive window makes the server wait for a WINDOW_UPDATE every 64 KiB
    // of an answer, and a busy client sends it only when its event loop comes round: a 300 KB page
    // of transactions took the gateway 0.5 s to receive under load while the indexer answered in
    // 30 ms. A window as large as the largest message lets any answer arrive in one go.
    'grpc-node.flow_control_window': maxMessageBytes,
  });
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

const tracer = trace.getTracer('@wallet-api/core/grpc');
const methodPaths = new WeakMap<object, string>();

/**
 * The method's full path (`/walletapi.positions.Positions/GetPortfolio`), the same label the
 * server records, found on the generated client's service definition.
 */
function methodPath(client: Client, method: object, fallback: string): string {
  const known = methodPaths.get(method);
  if (known) return known;
  const definition = (client.constructor as { service?: Record<string, { path: string }> }).service;
  const path = Object.entries(definition ?? {}).find(([key]) => (client as unknown as Record<string, unknown>)[key] === method)?.[1].path ?? fallback;
  methodPaths.set(method, path);
  return path;
}

/** A client call's span, child of the active context, and the metadata that carries it to the server. */
function startClientSpan(name: string): { span: Span; metadata: Metadata; started: bigint } {
  const span = tracer.startSpan(`grpc ${name}`, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc' } });
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(injectTraceContext({}, trace.setSpan(context.active(), span)))) metadata.set(key, value);
  return { span, metadata, started: process.hrtime.bigint() };
}

function recordFailure(span: Span, error: ServiceError): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.details });
  span.setAttribute('rpc.grpc.status_code', error.code);
}

/**
 * Calls a unary method with a deadline, in a client span whose context travels in the metadata.
 * Use as `unary(client, client.listChains, request)`.
 */
export function unary<C extends Client, Req, Res>(
  client: C,
  method: UnaryMethod<Req, Res>,
  request: Req,
  options: { deadlineMs?: number; name?: string } = {},
): Promise<Res> {
  const name = options.name ?? method.name ?? 'grpc call';
  const { span, metadata, started } = startClientSpan(name);
  return new Promise<Res>((resolve, reject) => {
    method.call(client, request, metadata, { deadline: Date.now() + (options.deadlineMs ?? 10_000) }, (error, response) => {
      grpcClientDuration.observe({ method: methodPath(client, method, name), code: statusName(error ? error.code : 0) }, secondsSince(started));
      if (error) {
        recordFailure(span, error);
        reject(error);
      } else resolve(response);
      span.end();
    });
  });
}

type ServerStreamingMethod<Req, Res> = (request: Req, metadata: Metadata, options: Partial<CallOptions>) => ClientReadableStream<Res>;

/**
 * Calls a server-streaming method with a deadline for the whole stream, in a client span like
 * `unary`, and yields its messages. Leaving the loop early cancels the call.
 * Use as `for await (const chunk of serverStream(client, client.streamWalletHistory, request))`.
 */
export async function* serverStream<C extends Client, Req, Res>(
  client: C,
  method: ServerStreamingMethod<Req, Res>,
  request: Req,
  options: { deadlineMs?: number; name?: string } = {},
): AsyncGenerator<Res> {
  const name = options.name ?? method.name ?? 'grpc stream';
  const { span, metadata, started } = startClientSpan(name);
  const call = method.call(client, request, metadata, { deadline: Date.now() + (options.deadlineMs ?? 60_000) });
  let code = status.CANCELLED;
  try {
    for await (const message of call) yield message as Res;
    code = status.OK;
  } catch (error) {
    code = (error as ServiceError).code ?? status.UNKNOWN;
    recordFailure(span, error as ServiceError);
    throw error;
  } finally {
    if (code === status.CANCELLED) {
      // The caller stopped reading: the CANCELLED status that follows is ours, not an error.
      call.on('error', () => undefined);
      call.cancel();
    }
    grpcClientDuration.observe({ method: methodPath(client, method, name), code: statusName(code) }, secondsSince(started));
    span.end();
  }
}
