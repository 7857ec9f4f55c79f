import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';

const tracer = trace.getTracer('@wallet-api/gateway');
const requestIdPattern = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the client's `X-Request-Id` if it is sane, otherwise a new one), echoed
 * in the response, and runs the rest of the request in a server span continuing the client's
 * `traceparent`, so gRPC calls and Kafka messages made for it join the same trace.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  const offered = req.get('x-request-id');
  const requestId = offered && requestIdPattern.test(offered) ? offered : randomUUID();
  res.locals.requestId = requestId;
  res.set('X-Request-Id', requestId);

  const carrier: Record<string, string> = {};
  for (const name of ['traceparent', 'tracestate', 'baggage']) {
    const value = req.get(name);
    if (value) carrier[name] = value;
  }
  const parent = propagation.extract(context.active(), carrier);
  const span = tracer.startSpan(
    `${req.method} ${req.path}`,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'url.path': req.path, 'request.id': requestId },
    },
    parent,
  );
  res.on('finish', () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  res.on('close', () => {
    if (!res.writableFinished) span.end();
  });
  context.with(trace.setSpan(parent, span), () => next());
};
