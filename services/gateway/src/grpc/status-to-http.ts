import { status, type ServiceError } from '@grpc/grpc-js';
import type { Logger } from '@wallet-api/core/logger';
import { apiError, type ApiError } from '../http/api-error.js';

export function isGrpcServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'metadata' in error;
}

/** Seconds a client should wait before retrying when a backend is unavailable. */
export const unavailableRetryAfterSeconds = 5;

/**
 * Maps a backend's gRPC status to the HTTP answer. Details of client-facing codes are written by
 * services for clients (see GrpcError); details of other codes may hold internals and are logged, not sent.
 */
export function grpcErrorToApiError(error: ServiceError, logger: Logger): ApiError {
  switch (error.code) {
    case status.INVALID_ARGUMENT:
    case status.OUT_OF_RANGE:
      return apiError(400, error.details);
    case status.NOT_FOUND:
      return apiError(404, error.details);
    case status.PERMISSION_DENIED:
      return apiError(403, error.details);
    case status.FAILED_PRECONDITION:
      return apiError(422, error.details);
    case status.RESOURCE_EXHAUSTED:
      return apiError(429, error.details, { 'Retry-After': '1' });
    case status.UNAVAILABLE:
      logger.warn({ code: error.code, details: error.details }, 'backend unavailable');
      return apiError(503, 'a backend service is unavailable; retry later', {
        'Retry-After': String(unavailableRetryAfterSeconds),
      });
    // The spec answers a slow backend like an unavailable one (section 7 has no 504): retrying helps.
    case status.DEADLINE_EXCEEDED:
      logger.warn({ code: error.code, details: error.details }, 'backend deadline exceeded');
      return apiError(503, 'a backend service did not answer in time; retry later', {
        'Retry-After': String(unavailableRetryAfterSeconds),
      });
    default:
      logger.error({ code: error.code, details: error.details }, 'backend call failed');
      return apiError(500, 'the request could not be completed');
  }
}
