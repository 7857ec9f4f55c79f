import { status } from '@grpc/grpc-js';

/**
 * A failure a service reports on purpose. Its message is safe to show to an API client; the
 * gateway maps the code to an HTTP status. Any other error becomes INTERNAL with a generic message.
 */
export class GrpcError extends Error {
  override name = 'GrpcError';
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

export const invalidArgument = (detail: string) => new GrpcError(status.INVALID_ARGUMENT, detail);
export const notFound = (detail: string) => new GrpcError(status.NOT_FOUND, detail);
export const unavailable = (detail: string) => new GrpcError(status.UNAVAILABLE, detail);
export const resourceExhausted = (detail: string) => new GrpcError(status.RESOURCE_EXHAUSTED, detail);
