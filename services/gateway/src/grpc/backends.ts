import { serviceAddressEnv } from '@wallet-api/core/config';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { ActionsClient } from '@wallet-api/core/proto/actions';
import { ChartClient } from '@wallet-api/core/proto/chart';
import { FungiblesClient } from '@wallet-api/core/proto/fungibles';
import { DappsClient } from '@wallet-api/core/proto/dapps';
import { FungibleChartsClient } from '@wallet-api/core/proto/fungible_charts';
import { GasPricesClient } from '@wallet-api/core/proto/gas';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { NftClient } from '@wallet-api/core/proto/nft';
import { PnlClient } from '@wallet-api/core/proto/pnl';
import { PositionsClient } from '@wallet-api/core/proto/positions';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { SubscriptionClient } from '@wallet-api/core/proto/subscription';
import { SwapClient } from '@wallet-api/core/proto/swap';
import { createAddressTracking, type AddressTracking } from './address-tracking.js';
import { createChainCatalog, type ChainCatalog } from './chain-catalog.js';

/** gRPC clients of the services the gateway fronts. */
export interface Backends {
  referenceData: ReferenceDataClient;
  /** The fungibles list, hosted by reference-data. */
  fungibles: FungiblesClient;
  indexer: IndexerClient;
  /** Unsigned actions, hosted by the indexer (its address). */
  actions: ActionsClient;
  positions: PositionsClient;
  chart: ChartClient;
  pnl: PnlClient;
  nft: NftClient;
  subscription: SubscriptionClient;
  /** Hosted by reference-data (its address). */
  dapps: DappsClient;
  /** Hosted by reference-data (its address). */
  gasPrices: GasPricesClient;
  /** Hosted by reference-data (its address). */
  fungibleCharts: FungibleChartsClient;
  /** Swap quotes, hosted by reference-data (its address). */
  swap: SwapClient;
  /** reference-data's chains, held briefly (see chain-catalog). */
  chains: ChainCatalog;
  /** Whether addresses are tracked, held briefly (see address-tracking). */
  tracking: AddressTracking;
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
  /** How long a ClassifyAddress answer is reused; 0: asked every time. */
  trackingTtlMs?: number;
}): Backends {
  const referenceData = createGrpcClient(ReferenceDataClient, addresses.referenceData);
  const fungibles = createGrpcClient(FungiblesClient, addresses.referenceData);
  const swap = createGrpcClient(SwapClient, addresses.referenceData);
  const indexer = createGrpcClient(IndexerClient, addresses.indexer);
  const actions = createGrpcClient(ActionsClient, addresses.indexer);
  const dapps = createGrpcClient(DappsClient, addresses.referenceData);
  const gasPrices = createGrpcClient(GasPricesClient, addresses.referenceData);
  const fungibleCharts = createGrpcClient(FungibleChartsClient, addresses.referenceData);
  const positions = createGrpcClient(PositionsClient, addresses.positions);
  const chart = createGrpcClient(ChartClient, addresses.chart ?? serviceAddressEnv.shape.CHART_GRPC_ADDRESS.parse(undefined));
  const pnl = createGrpcClient(PnlClient, addresses.pnl ?? serviceAddressEnv.shape.PNL_GRPC_ADDRESS.parse(undefined));
  const nft = createGrpcClient(NftClient, addresses.nft ?? serviceAddressEnv.shape.NFT_GRPC_ADDRESS.parse(undefined));
  const subscription = createGrpcClient(SubscriptionClient, addresses.subscription ?? serviceAddressEnv.shape.SUBSCRIPTION_GRPC_ADDRESS.parse(undefined));
  return {
    referenceData,
    fungibles,
    indexer,
    actions,
    positions,
    chart,
    pnl,
    nft,
    subscription,
    dapps,
    gasPrices,
    fungibleCharts,
    swap,
    chains: createChainCatalog(referenceData, { ttlMs: addresses.chainsTtlMs ?? 5_000 }),
    tracking: createAddressTracking(referenceData, { ttlMs: addresses.trackingTtlMs ?? 10_000 }),
    close() {
      referenceData.close();
      fungibles.close();
      indexer.close();
      actions.close();
      positions.close();
      chart.close();
      pnl.close();
      nft.close();
      subscription.close();
      dapps.close();
      gasPrices.close();
      fungibleCharts.close();
      swap.close();
    },
  };
}
