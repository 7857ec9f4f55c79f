import { createGrpcClient, startGrpcServer } from '@wallet-api/core/grpc';
import type { ClickHouse } from '@wallet-api/core/clickhouse';
import type { WalletTransaction } from '@wallet-api/core/proto/events';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { testLogger } from '@wallet-api/core/testing';
import { walletRows } from '../../indexer/src/consume/wallet-rows.js';
import { indexerService } from '../../indexer/src/grpc/indexer-service.js';
import { createWalletHistoryStore } from '../../indexer/src/store/wallet-history-store.js';
import { startReferenceDataFixture, type ReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';

export interface HistoryIndexer {
  indexer: IndexerClient;
  /** host:port of the indexer's gRPC server. */
  address: string;
  referenceData: RunningReferenceData;
  stop(): Promise<void>;
}

/**
 * The indexer's real gRPC service over `clickhouse` holding `transactions` (written newest first,
 * so an order read comes from the history, not from the writes), beside a reference-data answering
 * from `fixture`: what the pnl service reads a wallet's history and prices from.
 */
export async function startHistoryIndexer(clickhouse: ClickHouse, options: { fixture: ReferenceDataFixture; transactions: readonly WalletTransaction[] }): Promise<HistoryIndexer> {
  const referenceData = await startReferenceDataFixture(options.fixture);
  const store = createWalletHistoryStore(clickhouse);
  for (const transaction of [...options.transactions].reverse()) await store.writeTransaction(transaction, walletRows(transaction, { lookup: () => undefined }));
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [indexerService({ clickhouse, referenceData: referenceData.client })], logger: testLogger });
  const address = `127.0.0.1:${server.port}`;
  const indexer = createGrpcClient(IndexerClient, address);
  return {
    indexer,
    address,
    referenceData,
    async stop() {
      indexer.close();
      await server.shutdown(1_000);
      await referenceData.stop();
    },
  };
}
