import { createGrpcClient, startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { setupClickHouse, testLogger, uniqueName } from '@wallet-api/core/testing';
import { walletRows } from '../../indexer/src/consume/wallet-rows.js';
import { indexerService } from '../../indexer/src/grpc/indexer-service.js';
import { createWalletHistoryStore } from '../../indexer/src/store/wallet-history-store.js';
import { startReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { blockRef, native, randomAddress, transaction } from '../../indexer/test/wallet-history-fixtures.js';
import { createHistoryReader, TooManyTransactions } from '../src/history/history-reader.js';

// The pnl service's read of a wallet's history: the indexer's real gRPC service over ClickHouse,
// paged through ListWalletHistory and turned oldest first; a wallet past the limit is refused.

const clickhouse = setupClickHouse();
const chainId = uniqueName('chain');
const wallet = randomAddress();
const other = randomAddress();
let referenceData: RunningReferenceData;
let grpc: GrpcServer;
let indexer: IndexerClient;

// Seven payments over three blocks, two sharing a timestamp (block number and index break ties).
const blocks = [blockRef(chainId, 10, 1_700_000_000), blockRef(chainId, 11, 1_700_000_000), blockRef(chainId, 12, 1_700_000_012)];
const payments = [
  [0, 0],
  [0, 1],
  [1, 0],
  [1, 2],
  [2, 0],
  [2, 1],
  [2, 5],
].map(([block, index]) => transaction(blocks[block!]!, index!, { from: other, to: wallet, transfers: [{ asset: native, amount: String(block! * 10 + index!), sender: other, recipient: wallet }] }));

beforeAll(async () => {
  referenceData = await startReferenceDataFixture({ tokens: [], dapps: [] });
  const store = createWalletHistoryStore(clickhouse);
  // Written newest first: the order read must come from the history, not from the writes.
  for (const payment of [...payments].reverse()) await store.writeTransaction(payment, walletRows(payment, { lookup: () => undefined }));
  grpc = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [indexerService({ clickhouse, referenceData: referenceData.client })], logger: testLogger });
  indexer = createGrpcClient(IndexerClient, `127.0.0.1:${grpc.port}`);
});

afterAll(async () => {
  indexer?.close();
  await grpc?.shutdown(1_000);
  await referenceData?.stop();
  await clickhouse.close();
});

test('pages of any size give the whole history oldest first', async () => {
  for (const pageSize of [1, 2, 3, 7, 1_000]) {
    const history = await createHistoryReader({ indexer, pageSize }).history(wallet, [chainId]);
    expect(history).toEqual(payments);
  }
});

test('a wallet with more transactions than the limit is refused', async () => {
  await expect(createHistoryReader({ indexer, pageSize: 3, maxTransactions: 6 }).history(wallet, [chainId])).rejects.toBeInstanceOf(TooManyTransactions);
  expect(await createHistoryReader({ indexer, pageSize: 3, maxTransactions: 7 }).history(wallet, [chainId])).toHaveLength(7);
});

test('a wallet without transactions has an empty history', async () => {
  expect(await createHistoryReader({ indexer }).history(randomAddress(), [chainId])).toEqual([]);
});
