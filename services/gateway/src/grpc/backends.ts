import { serviceAddressEnv } from '@wallet-api/core/config';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { ChartClient } from '@wallet-api/core/proto/chart';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { NftClient } from '@wallet-api/core/proto/nft';
import { PnlClient } from '@wallet-api/core/proto/pnl';
import { PositionsClient } from '@wallet-api/core/proto/positions';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { SubscriptionClient } from '@wallet-api/core/proto/subscription';
import { createChainCatalog, type ChainCatalog } from './chain-catalog.js';

/** gRPC clients of the services the gateway fronts. */
export interface Backends {
  referenceData: ReferenceDataClient;
  indexer: IndexerClient;
  positions: PositionsClient;
  chart: ChartClient;
  pnl: PnlClient;
  nft: NftClient;
  subscription: SubscriptionClient;
  /** reference-data's chains, held briefly (see chain-catalog). */
  chains: ChainCatalog;
  close(): void;
}

export function createBackends(addresses: {
  referenceData: string;
  indexer: string;
  positions: string;
  /** Absent: the default CHART_GRPC_ADDRESS (gateways whose tests never reach the chart routes). */
  chart?: string;
  /** Absent: the default PNL_GRPC_ADDRESS (gateways whose tests never reach the pnl routes). */
  pnl?: string;
  /** Absent: the default NFT_GRPC_ADDRESS (gateways whose tests never reach the NFT routes). */
  nft?: string;
  /** Absent: the default SUBSCRIPTION_GRPC_ADDRESS (gateways whose tests never reach the subscription routes). */
  subscription?: string;
  /** How long a ListChains answer is reused; 0: asked every time. */
  chainsTtlMs?: number;
}): Backends {
  const referenceData = createGrpcClient(ReferenceDataClient, addresses.referenceData);
  const indexer = createGrpcClient(IndexerClient, addresses.indexer);
  const positions = createGrpcClient(PositionsClient, addresses.positions);
  const chart = createGrpcClient(ChartClient, addresses.chart ?? serviceAddressEnv.shape.CHART_GRPC_ADDRESS.parse(undefined));
  const pnl = createGrpcClient(PnlClient, addresses.pnl ?? serviceAddressEnv.shape.PNL_GRPC_ADDRESS.parse(undefined));
  const nft = createGrpcClient(NftClient, addresses.nft ?? serviceAddressEnv.shape.NFT_GRPC_ADDRESS.parse(undefined));
  const subscription = createGrpcClient(
    SubscriptionClient,
    addresses.subscription ?? serviceAddressEnv.shape.SUBSCRIPTION_GRPC_ADDRESS.parse(undefined),
  );
  return {
    referenceData,
    indexer,
    positions,
    chart,
    pnl,
    nft,
    subscription,
    chains: createChainCatalog(referenceData, { ttlMs: addresses.chainsTtlMs ?? 5_000 }),
    close() {
      referenceData.close();
      indexer.close();
      positions.close();
      chart.close();
      pnl.close();
      nft.close();
      subscription.close();
    },
  };
}
