import type { ServiceDefinition } from '@grpc/grpc-js';

const serialize = (value: unknown) => Buffer.from(JSON.stringify(value));
const deserialize = (bytes: Buffer) => JSON.parse(bytes.toString()) as unknown;

/**
 * A gRPC service definition whose messages travel as JSON: a test service of the shared server
 * and client helpers, independent of the generated contracts. Methods are unary unless marked
 * as streaming their responses.
 */
export function jsonServiceDefinition(service: string, methods: Record<string, { responseStream?: boolean }>): ServiceDefinition {
  return Object.fromEntries(
    Object.entries(methods).map(([method, { responseStream = false }]) => [
      method,
      {
        path: `/${service}/${method[0]!.toUpperCase()}${method.slice(1)}`,
        requestStream: false,
        responseStream,
        requestSerialize: serialize,
        requestDeserialize: deserialize,
        responseSerialize: serialize,
        responseDeserialize: deserialize,
      },
    ]),
  );
}
