import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { setupKafka, testLogger, freePort, setupPostgresDatabase, type PostgresDatabase } from '@wallet-api/core/testing';
import { parseAllowList } from '@wallet-api/core/outbound';
import { Network } from '@wallet-api/core/proto/common';
import {
  NftClient,
  NftPositionsSort,
  type GetNftsRequest,
  type GetNftsResponse,
  type ListWalletNftPositionsRequest,
  type ListWalletNftPositionsResponse,
} from '@wallet-api/core/proto/nft';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory } from '@wallet-api/core/reference-data';
import { startPipeline, type Pipeline, type PipelineOptions } from '../../indexer/test/setup-pipeline.js';
import { createChainClients } from '../src/chain/chain-clients.js';
import { createNftConsumers, type NftConsumers } from '../src/consume/nft-consumers.js';
import { nftService } from '../src/grpc/nft-service.js';
import { createMarketFollower } from '../src/market/market-follower.js';
import { createMetadataFetcher } from '../src/metadata/metadata-fetcher.js';
import { createMetadataWorker, type MetadataWorker } from '../src/metadata/metadata-worker.js';
import { createOpeningReader } from '../src/ownership/opening-reader.js';
import { createMarketStore } from '../src/store/market-store.js';
import { createOwnershipStore, type OwnershipStore } from '../src/store/ownership-store.js';
import { createTokenStore } from '../src/store/token-store.js';
import { createNftCatalog } from '../src/views/nft-catalog.js';
import { createWalletNfts } from '../src/views/wallet-nfts.js';
import { createWalletIndexing } from '../src/wallets/wallet-indexing.js';

/**
 * The nft service with everything it reads, real and in one process: the pipeline (chain
 * indexers, Kafka topics of its own, reference-data, the gateway, which reaches this service),
 * a PostgreSQL database of its own, the nft consumers, the metadata worker and the gRPC service.
 */
export interface NftHarness {
  pipeline: Pipeline;
  database: PostgresDatabase;
  ownership: OwnershipStore;
  worker: MetadataWorker;
  client: NftClient;
  /** One page of positions; defaults: every chain of `chainIds`' network, newest first, 500 a page. */
  positions(request: Partial<ListWalletNftPositionsRequest> & { address: string; chainIds: string[] }): Promise<ListWalletNftPositionsResponse>;
  nfts(request: Partial<GetNftsRequest>): Promise<GetNftsResponse>;
  close(): Promise<void>;
}

const testnets = new Set(['sepolia']);
export const contextFor = (chainIds: readonly string[]) => ({
  organizationId: '',
  roles: [],
  addons: [],
  network: chainIds.some((chainId) => testnets.has(chainId)) ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET,
});

export async function startNftHarness(options: PipelineOptions & { metadataRetryMs?: number } = {}): Promise<NftHarness> {
  const port = await freePort();
  const pipeline = await startPipeline({ ...options, nftAddress: `127.0.0.1:${port}` });
  const database = await setupPostgresDatabase(`${pipeline.suffix}_nft`);
  const referenceData = createGrpcClient(ReferenceDataClient, pipeline.referenceDataAddress);
  const clients = createChainClients(referenceData, { rpcTimeoutMs: 30_000 });
  const ownership = createOwnershipStore(database.prisma);
  const tokens = createTokenStore(database.prisma);
  const market = createMarketStore(database.prisma);
  const versions = pipeline.versions;
  const indexing = createWalletIndexing({
    store: ownership,
    tokens,
    reader: createOpeningReader({ clients, maxLogRange: 1_000_000n, concurrency: 16 }),
    clients,
    versions,
    logger: testLogger,
    concurrency: 4,
  });
  const consumers: NftConsumers = createNftConsumers({
    kafka: setupKafka('nft-test'),
    ownership,
    tokens,
    indexing,
    market: createMarketFollower({ clients, store: market, logger: testLogger }),
    versions,
    logger: testLogger,
    groupId: `${pipeline.suffix}.nft`,
    topics: pipeline.topics,
  });
  await consumers.start();
  const worker = createMetadataWorker({
    tokens,
    clients,
    fetcher: createMetadataFetcher({ ipfsGateway: 'https://ipfs.io/ipfs/', allow: parseAllowList('loopback'), timeoutMs: 5_000, maxBytes: 1024 * 1024 }),
    versions,
    logger: testLogger,
    batchSize: 100,
    concurrency: 16,
    idleMs: 200,
    backoffMs: options.metadataRetryMs ?? 500,
    maxBackoffMs: 5_000,
    maxAttempts: 3,
  });
  worker.start();
  const catalog = createNftCatalog({ tokens, market, tokenDirectory: createTokenDirectory(referenceData), referenceData });
  const server: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port,
    services: [nftService({ indexing, wallets: createWalletNfts({ ownership, catalog, versions, maxWallets: 1_000 }), catalog })],
    logger: testLogger,
  });
  const client = createGrpcClient(NftClient, `127.0.0.1:${port}`);

  return {
    pipeline,
    database,
    ownership,
    worker,
    client,
    positions: (request) =>
      unary(
        client,
        client.listWalletNftPositions,
        {
          context: contextFor(request.chainIds),
          collectionIds: [],
          sort: NftPositionsSort.NFT_POSITIONS_SORT_CREATED_AT_DESC,
          pageSize: 500,
          cursor: '',
          currency: 'usd',
          ...request,
        },
        { deadlineMs: 60_000 },
      ),
    nfts: (request) =>
      unary(
        client,
        client.getNfts,
        { context: contextFor(request.refs?.map((ref) => ref.chainId) ?? []), refs: [], currency: 'usd', ...request },
        { deadlineMs: 60_000 },
      ),
    async close() {
      client.close();
      await server.shutdown(1_000);
      await worker.stop();
      await consumers.stop();
      await indexing.close();
      referenceData.close();
      await pipeline.close();
      await database.drop();
    },
  };
}
