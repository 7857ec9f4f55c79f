import { trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout, stamped with the active trace and span so logs join traces. */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  });
}
