import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { testLogger } from '@wallet-api/core/testing';
import { grpcErrorToApiError, isGrpcServiceError } from './status-to-http.js';

function serviceError(code: status, details: string): ServiceError {
  return Object.assign(new Error(details), { code, details, metadata: new Metadata() });
}

describe('gRPC status to HTTP', () => {
  test.each([
    [status.INVALID_ARGUMENT, 400, 'Parameter is malformed', 'chain x does not support positions'],
    [status.NOT_FOUND, 404, 'Not Found', 'chain x is not supported'],
    [status.RESOURCE_EXHAUSTED, 429, 'Too many requests', 'slow down'],
    [status.FAILED_PRECONDITION, 422, 'Unprocessable Entity', 'too many actions'],
  ])('%p -> %p keeps the service detail', (code, httpStatus, title, details) => {
    const error = grpcErrorToApiError(serviceError(code, details), testLogger);
    expect([error.status, error.title, error.detail]).toEqual([httpStatus, title, details]);
  });

  test('UNAVAILABLE -> 503 with Retry-After and no backend detail', () => {
    const error = grpcErrorToApiError(serviceError(status.UNAVAILABLE, 'connect ECONNREFUSED 10.1.2.3:50051'), testLogger);
    expect(error.status).toBe(503);
    expect(error.title).toBe('Service is temporarily unavailable');
    expect(error.headers['Retry-After']).toBe('5');
    expect(error.detail).not.toContain('10.1.2.3');
  });

  test('DEADLINE_EXCEEDED -> 503 with Retry-After, as the spec has no 504', () => {
    const error = grpcErrorToApiError(serviceError(status.DEADLINE_EXCEEDED, 'Deadline exceeded after 10.001s'), testLogger);
    expect([error.status, error.title, error.headers['Retry-After']]).toEqual([503, 'Service is temporarily unavailable', '5']);
  });

  test.each([status.INTERNAL, status.UNKNOWN, status.DATA_LOSS])('%p -> 500 with a generic detail', (code) => {
    const error = grpcErrorToApiError(serviceError(code, 'stack at /srv/x.ts:1'), testLogger);
    expect(error.status).toBe(500);
    expect(error.detail).not.toContain('/srv');
  });

  test('recognises gRPC errors only', () => {
    expect(isGrpcServiceError(serviceError(status.INTERNAL, 'x'))).toBe(true);
    expect(isGrpcServiceError(new Error('plain'))).toBe(false);
  });
});
