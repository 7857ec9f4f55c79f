import { trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';
import { boundedLines } from './bounded-lines.js';
import { errorFields } from './error-fields.js';

export type { Logger };
export { boundedLines, maxLogLineBytes } from './bounded-lines.js';
export { boundedText, errorFields, hostOf } from './error-fields.js';

/**
 * JSON logs on stdout, stamped with the active trace and span so logs join traces. Errors are
 * logged as errorFields says (never a request body or a URL's path), and no line is longer than
 * maxLogLineBytes. `write`: where lines go (stdout unless told).
 */
export function createLogger(
  service: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      serializers: { err: errorFields, error: errorFields },
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { trace_id: traceId, span_id: spanId };
      },
    },
    boundedLines(write),
  );
}
