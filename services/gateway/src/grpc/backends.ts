import { createGrpcClient } from '@wallet-api/core/grpc';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';

/** gRPC clients of the services the gateway fronts. */
export interface Backends {
  referenceData: ReferenceDataClient;
  close(): void;
}

export function createBackends(addresses: { referenceData: string }): Backends {
  const referenceData = createGrpcClient(ReferenceDataClient, addresses.referenceData);
  return {
    referenceData,
    close() {
      referenceData.close();
    },
  };
}
