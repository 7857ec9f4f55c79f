import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDependencyOutage } from '@wallet-api/core/grpc';
import type { Logger } from '@wallet-api/core/logger';
import { ApiError, apiError, errorBody } from './api-error.js';
import { grpcErrorToApiError, isGrpcServiceError, unavailableRetryAfterSeconds } from '../grpc/status-to-http.js';

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(apiError(404, `no endpoint ${req.method} ${req.baseUrl}${req.path}`));
};

/** Body-parser and similar middleware signal client mistakes with `status`/`type` on the error. */
function clientErrorFromMiddleware(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type } = error as { status?: number; type?: string };
  if (type === 'entity.parse.failed') return apiError(400, 'request body is not valid JSON');
  if (type === 'entity.too.large') return apiError(413, 'request body is too large');
  if (status === 400) return apiError(400, 'request is malformed');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return apiError(400, 'request body encoding is not supported');
  return undefined;
}

/**
 * Last middleware: every failure becomes the spec's error body. Unexpected errors are logged with
 * their stack and answered with a generic 500, so no internals ever reach a client.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    let apiErr: ApiError;
    if (error instanceof ApiError) apiErr = error;
    else if (isGrpcServiceError(error)) apiErr = grpcErrorToApiError(error, logger);
    else if (isDependencyOutage(error)) {
      // PostgreSQL (API keys) or Redis (rate limits, payments' replay guard) is down: retrying helps.
      logger.warn({ err: error, requestId: res.locals.requestId, path: req.path }, 'a dependency is unreachable');
      apiErr = apiError(503, 'a dependency of the service is unavailable; retry later', { 'Retry-After': String(unavailableRetryAfterSeconds) });
    } else {
      apiErr = clientErrorFromMiddleware(error) ?? apiError(500, 'the request could not be completed');
      if (apiErr.status === 500) logger.error({ err: error, requestId: res.locals.requestId, path: req.path }, 'unhandled error');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(apiErr.status).set(apiErr.headers).json(errorBody(apiErr));
  };
}
