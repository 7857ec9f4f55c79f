import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import {
  Server,
  ServerCredentials,
  status,
  type Metadata,
  type ServiceDefinition,
  type handleUnaryCall,
  type sendUnaryData,
  type ServerUnaryCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { grpcServerDuration, secondsSince } from '../metrics/platform-metrics.js';
import { extractTraceContext } from '../telemetry/index.js';
import { GrpcError } from './errors.js';

export interface CallContext {
  metadata: Metadata;
  /** Aborted when the client cancels or its deadline passes. */
  signal: AbortSignal;
}

/** The promise-returning form of a ts-proto `*Server` interface. */
export type AsyncService<S> = {
  [M in keyof S as S[M] extends handleUnaryCall<any, any> ? M : never]: S[M] extends handleUnaryCall<infer Req, infer Res>
    ? (request: Req, call: CallContext) => Promise<Res>
    : never;
};

export interface ServiceRegistration {
  /** Fully qualified name, e.g. `walletapi.referencedata.ReferenceData`, used for health status. */
  name: string;
  definition: ServiceDefinition;
  implementation: Record<string, (request: any, call: CallContext) => Promise<unknown>>;
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

function unaryHandler(
  path: string,
  handler: (request: unknown, call: CallContext) => Promise<unknown>,
  logger: Logger,
): handleUnaryCall<unknown, unknown> {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const started = process.hrtime.bigint();
    const answered = (code: status) => grpcServerDuration.observe({ method: path, code: statusName(code) }, secondsSince(started));
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    const parent = extractTraceContext(metadataCarrier(call.metadata));
    context.with(parent, () =>
      tracer.startActiveSpan(path, { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc' } }, async (span) => {
        try {
          const response = await handler(call.request, { metadata: call.metadata, signal: abort.signal });
          answered(status.OK);
          callback(null, response);
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          if (error instanceof GrpcError) {
            span.setAttribute('rpc.grpc.status_code', error.code);
            answered(error.code);
            callback({ code: error.code, details: error.message });
          } else {
            span.recordException(error as Error);
            logger.error({ err: error, path }, 'gRPC handler failed');
            answered(status.INTERNAL);
            callback({ code: status.INTERNAL, details: 'internal error' });
          }
        } finally {
          span.end();
        }
      }),
    );
  };
}

/**
 * Starts a gRPC server with the given services plus the standard `grpc.health.v1.Health` service.
 * Every handler runs inside the caller's trace context, and unexpected errors are logged and
 * answered as INTERNAL without their message.
 */
export async function startGrpcServer(options: {
  host: string;
  port: number;
  services: readonly ServiceRegistration[];
  logger: Logger;
}): Promise<GrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024 });
  const health = new HealthImplementation({ '': 'SERVING' });
  health.addToServer(server);
  for (const service of options.services) {
    const implementation: UntypedServiceImplementation = {};
    for (const [method, spec] of Object.entries(service.definition)) {
      const handler = service.implementation[method];
      if (!handler) throw new Error(`${service.name}: no implementation for ${method}`);
      if (spec.requestStream || spec.responseStream) throw new Error(`${service.name}.${method}: only unary calls are supported`);
      implementation[method] = unaryHandler(spec.path, handler, options.logger);
    }
    // grpc-js refuses a service without methods; one whose RPCs are still to come is only
    // reported through the health service.
    if (Object.keys(implementation).length > 0) server.addService(service.definition, implementation);
    health.setStatus(service.name, 'SERVING');
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
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
