import { context, propagation, trace, type Context, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetector, hostDetector, osDetector, processDetector } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Telemetry {
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  serviceName: string;
  /** Extra processors, e.g. an in-memory exporter in tests. */
  spanProcessors?: SpanProcessor[];
  /** OTLP/HTTP endpoint; without one, spans are only handed to `spanProcessors`. */
  otlpEndpoint?: string | undefined;
}

/**
 * Starts the OpenTelemetry SDK: W3C trace-context propagation, async-local context and span export.
 * Spans are made explicitly by the project's HTTP, gRPC and Kafka wrappers rather than by
 * monkey-patching instrumentations, which do not hook ESM modules without a loader flag.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  const processors = [...(options.spanProcessors ?? [])];
  if (options.otlpEndpoint) {
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, '')}/v1/traces` })));
  }
  // Without any processor the SDK installs no tracer provider, and requests would get no trace ids
  // for their logs; the no-op processor keeps ids flowing when nothing exports.
  if (processors.length === 0) processors.push(new NoopSpanProcessor());
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors: processors,
    instrumentations: [],
    // Cloud detectors would probe metadata endpoints that do not exist on a self-hosted machine.
    resourceDetectors: [envDetector, hostDetector, osDetector, processDetector],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

export function getTracer(name: string): Tracer {
  return trace.getTracer(name);
}

type Carrier = Record<string, string>;

/** Writes the active (or given) trace context into a plain string map: gRPC metadata, Kafka headers. */
export function injectTraceContext(into: Carrier = {}, from: Context = context.active()): Carrier {
  propagation.inject(from, into);
  return into;
}

/** Reads a trace context written by `injectTraceContext`, falling back to the active context. */
export function extractTraceContext(carrier: Carrier): Context {
  return propagation.extract(context.active(), carrier);
}
