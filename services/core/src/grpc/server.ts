import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import {
  Server,
  ServerCredentials,
  status,
  type Metadata,
  type ServiceDefinition,
  type handleServerStreamingCall,
  type handleUnaryCall,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { once } from 'node:events';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { grpcServerDuration, secondsSince } from '../metrics/platform-metrics.js';
import { extractTraceContext } from '../telemetry/index.js';
import { isDependencyOutage } from './dependency-outage.js';
import { GrpcError } from './errors.js';

export interface CallContext {
  metadata: Metadata;
  /** Aborted when the client cancels or its deadline passes. */
  signal: AbortSignal;
}

/**
 * The promise-returning form of a ts-proto `*Server` interface: a unary method answers a promise,
 * a server-streaming one an async iterable of its messages.
 */
export type AsyncService<S> = {
  // biome-ignore lint/suspicious/noExplicitAny: matches a handler of any request and response type, which infer then names
  [M in keyof S as S[M] extends handleUnaryCall<any, any> | handleServerStreamingCall<any, any> ? M : never]: S[M] extends handleUnaryCall<infer Req, infer Res>
    ? (request: Req, call: CallContext) => Promise<Res>
    : S[M] extends handleServerStreamingCall<infer Req, infer Res>
      ? (request: Req, call: CallContext) => AsyncIterable<Res>
      : never;
};

export interface ServiceRegistration {
  /** Fully qualified name, e.g. `walletapi.referencedata.ReferenceData`, used for health status. */
  name: string;
  definition: ServiceDefinition;
  // biome-ignore lint/suspicious/noExplicitAny: each method takes its own request type; grpc-js checks them by the definition
  implementation: Record<string, (request: any, call: CallContext) => Promise<unknown> | AsyncIterable<unknown>>;
}

export function registration<S>(name: string, definition: ServiceDefinition, implementation: AsyncService<S>): ServiceRegistration {
  return { name, definition, implementation: implementation as ServiceRegistration['implementation'] };
}

export interface GrpcServer {
  /** The port actually bound (useful with port 0 in tests). */
  readonly port: number;
  /**
   * Marks the server NOT_SERVING, stops accepting calls and waits for in-flight calls to finish;
   * calls still running after `timeoutMs` are cancelled.
   */
  shutdown(timeoutMs: number): Promise<void>;
}

const tracer = trace.getTracer('@wallet-api/core/grpc');

function metadataCarrier(metadata: Metadata): Record<string, string> {
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.getMap())) if (typeof value === 'string') carrier[key] = value;
  return carrier;
}

/** `NOT_FOUND` for 5: the names operators know from grpc tooling, for the `code` label. */
export function statusName(code: number): string {
  return status[code] ?? String(code);
}

type Answer = (code: status) => void;

/**
 * Runs a handler in the caller's trace context, in a server span, recording the duration and code
 * of its answer; `serve` answers OK or throws. A GrpcError answers its code and message; anything
 * else is logged and answered INTERNAL without its message.
 */
function served(
  path: string,
  call: { metadata: Metadata; on(event: 'cancelled', listener: () => void): unknown },
  logger: Logger,
  serve: (context: CallContext, answered: Answer) => Promise<void>,
  fail: (error: { code: status; details: string }) => void,
): void {
  const started = process.hrtime.bigint();
  const answered: Answer = (code) => grpcServerDuration.observe({ method: path, code: statusName(code) }, secondsSince(started));
  const abort = new AbortController();
  call.on('cancelled', () => abort.abort());
  const parent = extractTraceContext(metadataCarrier(call.metadata));
  context.with(parent, () =>
    tracer.startActiveSpan(path, { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc' } }, async (span) => {
      try {
        await serve({ metadata: call.metadata, signal: abort.signal }, answered);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        if (error instanceof GrpcError) {
          span.setAttribute('rpc.grpc.status_code', error.code);
          answered(error.code);
          fail({ code: error.code, details: error.message });
        } else if (abort.signal.aborted) {
          // The client went away mid-answer (a stream it stopped reading): nothing failed here.
          answered(status.CANCELLED);
        } else if (isDependencyOutage(error)) {
          // A store or broker is down: the caller answers 503 with Retry-After, and the same
          // request succeeds once it is back. One warning per call, without the stack.
          span.recordException(error as Error);
          logger.warn({ err: error, path }, 'gRPC handler failed: a dependency is unreachable');
          answered(status.UNAVAILABLE);
          fail({ code: status.UNAVAILABLE, details: 'a dependency is unreachable' });
        } else {
          span.recordException(error as Error);
          logger.error({ err: error, path }, 'gRPC handler failed');
          answered(status.INTERNAL);
          fail({ code: status.INTERNAL, details: 'internal error' });
        }
      } finally {
        span.end();
      }
    }),
  );
}

function unaryHandler(path: string, handler: (request: unknown, call: CallContext) => Promise<unknown>, logger: Logger): handleUnaryCall<unknown, unknown> {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
    served(
      path,
      call,
      logger,
      async (callContext, answered) => {
        const response = await handler(call.request, callContext);
        answered(status.OK);
        callback(null, response);
      },
      (error) => callback(error),
    );
}

/** Writes each message the handler yields, waiting while the client's window is full; ends OK after the last. */
function serverStreamingHandler(
  path: string,
  handler: (request: unknown, call: CallContext) => AsyncIterable<unknown>,
  logger: Logger,
): handleServerStreamingCall<unknown, unknown> {
  return (call: ServerWritableStream<unknown, unknown>) =>
    served(
      path,
      call,
      logger,
      async (callContext, answered) => {
        for await (const message of handler(call.request, callContext)) {
          // Leaving the loop ends the handler's iterator, which lets go of what it reads from.
          callContext.signal.throwIfAborted();
          if (!call.write(message)) await once(call, 'drain', { signal: callContext.signal });
        }
        answered(status.OK);
        call.end();
      },
      (error) => call.emit('error', error),
    );
}

/**
 * Starts a gRPC server with the given services plus the standard `grpc.health.v1.Health` service.
 * Every handler runs inside the caller's trace context, and unexpected errors are logged and
 * answered as INTERNAL without their message.
 */
/**
 * The largest message a service takes in either direction: a page of 1,000 decoded transactions
 * of busy wallets measured 5.6 MB, beyond gRPC's 4 MB default, and failed the PnL that read it.
 */
export const maxMessageBytes = 16 * 1024 * 1024;

export async function startGrpcServer(options: { host: string; port: number; services: readonly ServiceRegistration[]; logger: Logger }): Promise<GrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': maxMessageBytes });
  const health = new HealthImplementation({ '': 'SERVING' });
  health.addToServer(server);
  for (const service of options.services) {
    const implementation: UntypedServiceImplementation = {};
    for (const [method, spec] of Object.entries(service.definition)) {
      const handler = service.implementation[method];
      if (!handler) throw new Error(`${service.name}: no implementation for ${method}`);
      if (spec.requestStream) throw new Error(`${service.name}.${method}: client-streaming calls are not supported`);
      implementation[method] = spec.responseStream
        ? serverStreamingHandler(spec.path, handler as (request: unknown, call: CallContext) => AsyncIterable<unknown>, options.logger)
        : unaryHandler(spec.path, handler as (request: unknown, call: CallContext) => Promise<unknown>, options.logger);
    }
    // grpc-js refuses a service without methods; one whose RPCs are still to come is only
    // reported through the health service.
    if (Object.keys(implementation).length > 0) server.addService(service.definition, implementation);
    health.setStatus(service.name, 'SERVING');
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    port,
    async shutdown(timeoutMs) {
      health.setStatus('', 'NOT_SERVING');
      for (const service of options.services) health.setStatus(service.name, 'NOT_SERVING');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
