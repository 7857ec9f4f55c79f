import { createGrpcClient } from '@wallet-api/core/grpc';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { PositionsClient } from '@wallet-api/core/proto/positions';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';

/** gRPC clients of the services the gateway fronts. */
export interface Backends {
  referenceData: ReferenceDataClient;
  indexer: IndexerClient;
  positions: PositionsClient;
  close(): void;
}

export function createBackends(addresses: { referenceData: string; indexer: string; positions: string }): Backends {
  const referenceData = createGrpcClient(ReferenceDataClient, addresses.referenceData);
  const indexer = createGrpcClient(IndexerClient, addresses.indexer);
  const positions = createGrpcClient(PositionsClient, addresses.positions);
  return {
    referenceData,
    indexer,
    positions,
    close() {
      referenceData.close();
      indexer.close();
      positions.close();
    },
  };
}
