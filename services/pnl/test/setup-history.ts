import type { ChangeVersions } from '@wallet-api/core/cache';
import { createGrpcClient, startGrpcServer } from '@wallet-api/core/grpc';
import type { ClickHouse } from '@wallet-api/core/clickhouse';
import type { WalletTransaction } from '@wallet-api/core/proto/events';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory } from '@wallet-api/core/reference-data';
import { testLogger } from '@wallet-api/core/testing';
import { walletRows } from '../../indexer/src/consume/wallet-rows.js';
import { indexerService } from '../../indexer/src/grpc/indexer-service.js';
import { createWalletHistoryStore } from '../../indexer/src/store/wallet-history-store.js';
import { createBookKeeper } from '../src/book/book-keeper.js';
import { createLegPricing } from '../src/book/leg-pricing.js';
import { createWalletPnl, type WalletPnl } from '../src/compute/wallet-pnl.js';
import { createHistoryReader } from '../src/history/history-reader.js';
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
export async function startHistoryIndexer(
  clickhouse: ClickHouse,
  options: { fixture: ReferenceDataFixture; transactions: readonly WalletTransaction[] },
): Promise<HistoryIndexer> {
  const referenceData = await startReferenceDataFixture(options.fixture);
  const store = createWalletHistoryStore(clickhouse);
  const newestFirst = [...options.transactions].reverse();
  for (let start = 0; start < newestFirst.length; start += 1_000) {
    const batch = newestFirst.slice(start, start + 1_000).map((transaction) => ({ transaction, rows: walletRows(transaction, { lookup: () => undefined }) }));
    await (await store.writeTransactions(batch)).durable;
  }
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [indexerService({ clickhouse, referenceData: referenceData.client })],
    logger: testLogger,
  });
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

/** The pnl service's computation as main.ts wires it, over an indexer and a reference-data. */
export function walletPnlOver(
  clients: { indexer: IndexerClient; referenceData: ReferenceDataClient },
  versions: ChangeVersions,
  options: { now?: () => number; maxTransactions?: number } = {},
): WalletPnl {
  const { indexer, referenceData } = clients;
  const { maxTransactions, ...rest } = options;
  return createWalletPnl({
    books: createBookKeeper({
      history: createHistoryReader({ indexer, ...(maxTransactions === undefined ? {} : { maxTransactions }) }),
      pricing: createLegPricing({ tokens: createTokenDirectory(referenceData), referenceData }),
      versions,
      ...(maxTransactions === undefined ? {} : { maxTransactions }),
    }),
    referenceData,
    ...rest,
  });
}
