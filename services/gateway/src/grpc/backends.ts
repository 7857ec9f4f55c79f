import { createGrpcClient } from '@wallet-api/core/grpc';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';

/** gRPC clients of the services the gateway fronts. */
export interface Backends {
  referenceData: ReferenceDataClient;
  indexer: IndexerClient;
  close(): void;
}

export function createBackends(addresses: { referenceData: string; indexer: string }): Backends {
  const referenceData = createGrpcClient(ReferenceDataClient, addresses.referenceData);
  const indexer = createGrpcClient(IndexerClient, addresses.indexer);
  return {
    referenceData,
    indexer,
    close() {
      referenceData.close();
      indexer.close();
    },
  };
}
