import { sql } from '@wallet-api/core/clickhouse';
import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { createProducer, ensureTopics, type MessageProducer } from '@wallet-api/core/kafka';
import { IndexerClient, TrashFilter, type ListWalletTransactionsRequest } from '@wallet-api/core/proto/indexer';
import { setupChangeVersions, setupClickHouse, setupKafka, testLogger, uniqueName } from '@wallet-api/core/testing';
import { createTransactionWriter, type TransactionWriter } from '../src/consume/transaction-writer.js';
import { walletRows } from '../src/consume/wallet-rows.js';
import { indexerService } from '../src/grpc/indexer-service.js';
import { createHistoryMemory, type HistoryMemory } from '../src/store/history-memory.js';
import { createWalletHistoryStore } from '../src/store/wallet-history-store.js';
import { startReferenceDataFixture, type RunningReferenceData } from './reference-data-fixture.js';
import type { ChainRollback } from '@wallet-api/core/proto/events';
import {
  blockRef,
  chainBlock,
  erc20,
  native,
  randomAddress,
  token,
  transaction,
  type BlockRef,
  eventually,
  uniqueWriterTopics,
} from './wallet-history-fixtures.js';

const clickhouse = setupClickHouse();
const kafka = setupKafka('history-memory-test');
const changes = setupChangeVersions();

// The indexer's production shape: the writer keeps rows in memory for an hour here (five minutes by
// default), and the gRPC service of the same process reads them from there until they are stored.
describe('transaction rows waiting for their INSERT are served from the indexer memory', () => {
  const chainId = uniqueName('chain');
  const usdc = randomAddress();
  const groupId = uniqueName('writer');
  const writerTopics = uniqueWriterTopics();
  let referenceData: RunningReferenceData;
  let memory: HistoryMemory;
  let writer: TransactionWriter;
  let producer: MessageProducer;
  let grpc: GrpcServer;
  let indexer: IndexerClient;

  const list = async (request: Partial<ListWalletTransactionsRequest> & { address: string }) =>
    unary(indexer, indexer.listWalletTransactions, {
      context: undefined,
      chainIds: [chainId],
      operationTypes: [],
      trash: TrashFilter.TRASH_FILTER_NO_FILTER,
      assetTypes: [],
      searchQuery: '',
      after: undefined,
      pageSize: 100,
      includePending: false,
      ...request,
    });
  const storedRows = async (address: string) =>
    Number(
      (await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM wallet_transactions WHERE chain_id = ${chainId} AND address = ${address}`))[0]!.n,
    );
  /** Per partition with messages: the committed offset and the partition's end. */
  const commitsAndEnds = async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [offsets] = await admin.fetchOffsets({ groupId: `${groupId}.transactions`, topics: [writerTopics.walletTransactions.name] });
      const ends = await admin.fetchTopicOffsets(writerTopics.walletTransactions.name);
      return ends
        .filter(({ high }) => high !== '0')
        .map(({ partition, high }) => ({ committed: offsets!.partitions.find((entry) => entry.partition === partition)!.offset, end: high }));
    } finally {
      await admin.disconnect();
    }
  };

  beforeAll(async () => {
    await ensureTopics(kafka, Object.values(writerTopics));
    referenceData = await startReferenceDataFixture({
      tokens: [
        token(chainId, '', { interface: 1, name: 'Ether', symbol: 'ETH', decimals: 18, fungibleId: 'eth', verified: true }),
        token(chainId, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6, fungibleId: 'usdc', verified: true }),
      ],
      dapps: [],
    });
    memory = createHistoryMemory({ clickhouse, logger: testLogger, storeEveryMs: 3_600_000 });
    writer = createTransactionWriter({
      kafka,
      clickhouse,
      referenceData: referenceData.client,
      versions: changes.versions,
      logger: testLogger,
      groupId,
      topics: writerTopics,
      memory,
    });
    await writer.start();
    producer = await createProducer(kafka);
    grpc = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [indexerService({ clickhouse, referenceData: referenceData.client, memory })],
      logger: testLogger,
    });
    indexer = createGrpcClient(IndexerClient, `127.0.0.1:${grpc.port}`);
  });

  afterAll(async () => {
    await writer.stop();
    await producer.disconnect();
    indexer.close();
    await grpc.shutdown(1_000);
    await referenceData.stop();
    await clickhouse.close();
    changes.close();
  });

  // ReplacingMergeTree(sequence) keeps the newest row of a hash once parts merge, so the state is
  // read as readers do (argMax by sequence); the rollback view keeps every hash a rollback named.
  const blockState = async (block: BlockRef) => {
    const [row] = await clickhouse.query<{ rows: string; newest_orphaned: number; newest: string }>(
      sql`SELECT count() AS rows, argMax(orphaned, sequence) AS newest_orphaned, max(sequence) AS newest FROM block_states WHERE chain_id = ${chainId} AND block_hash = ${block.hash}`,
    );
    return Number(row!.rows) === 0 ? 'none' : `${Number(row!.newest_orphaned) === 1 ? 'orphaned' : 'canonical'}@${row!.newest}`;
  };
  const namedByRollback = async (block: BlockRef) =>
    Number(
      (
        await clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM orphaned_block_hashes WHERE chain_id = ${chainId} AND block_hash = ${block.hash}`)
      )[0]!.n,
    ) > 0;
  const rollback = (block: BlockRef, sequence: number): ChainRollback => ({
    chainId,
    commonAncestorNumber: String(block.number - 1),
    commonAncestorHash: '0x00',
    orphanedBlockHashes: [block.hash],
    orphanedBlockNumbers: [String(block.number)],
    sequence: String(sequence),
  });

  test("blocks' rows wait like transaction rows, except where a rollback names the block: a stale rollback lands after them, a revived block's row at once", async () => {
    const carol = randomAddress();
    const stale = blockRef(chainId, 100, 1_700_001_200);
    const staleTransaction = transaction(stale, 0, { from: carol, to: usdc, transfers: [{ asset: native, amount: '1', sender: carol, recipient: usdc }] });
    await producer.send(writerTopics.walletTransactions, [{ key: chainId, value: staleTransaction }]);
    await producer.send(writerTopics.chainBlocks, [{ key: chainId, value: chainBlock(stale, 50) }]);
    await eventually(
      () => list({ address: carol }),
      (response) => response.transactions.length === 1,
    );
    // The block group handles within ten seconds; its row then waits in memory.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await blockState(stale)).toBe('none');
    // A rollback older than the block's row (sequence 49 < 50): the row is stored first, so it loses.
    await producer.send(writerTopics.chainRollbacks, [{ key: chainId, value: rollback(stale, 49) }]);
    await eventually(
      () => namedByRollback(stale),
      (named) => named,
    );
    expect(await blockState(stale)).toBe('canonical@50');
    expect((await list({ address: carol })).transactions.map((record) => record.hash)).toEqual([staleTransaction.hash]);

    // A rollback first, then the block again with a newer sequence: its row is stored at once.
    const revived = blockRef(chainId, 101, 1_700_001_212);
    const revivedTransaction = transaction(revived, 0, { from: carol, to: usdc, transfers: [{ asset: native, amount: '2', sender: carol, recipient: usdc }] });
    await producer.send(writerTopics.walletTransactions, [{ key: chainId, value: revivedTransaction }]);
    await producer.send(writerTopics.chainRollbacks, [{ key: chainId, value: rollback(revived, 60) }]);
    await eventually(
      () => blockState(revived),
      (state) => state === 'orphaned@60',
    );
    await eventually(
      () => list({ address: carol }),
      (response) => response.transactions.length === 1,
    );
    await producer.send(writerTopics.chainBlocks, [{ key: chainId, value: chainBlock(revived, 61) }]);
    // Within the block group's ten seconds, not the hour the other rows wait here.
    await eventually(
      () => blockState(revived),
      (state) => state === 'canonical@61',
      20_000,
    );
    await eventually(
      () => list({ address: carol }),
      (response) => response.transactions.length === 2,
    );
  });

  test('a wallet with hundreds of waiting rows is paged from memory, none of them stored for it', async () => {
    const dave = randomAddress();
    const sent = Array.from({ length: 400 }, (_, index) =>
      transaction(blockRef(chainId, 1_000 + index, 1_700_100_000 + index * 12), 0, {
        from: dave,
        to: usdc,
        transfers: [{ asset: native, amount: String(index + 1), sender: dave, recipient: usdc }],
      }),
    );
    await producer.send(
      writerTopics.walletTransactions,
      sent.map((value) => ({ key: chainId, value })),
    );
    await eventually(
      async () => memory.rows.waitingFor('wallet_transactions', dave).length,
      (count) => count === 400,
    );

    const pages: string[][] = [];
    let page = await list({ address: dave });
    pages.push(page.transactions.map((record) => record.hash));
    while (page.hasMore) {
      page = await list({ address: dave, after: page.transactions.at(-1)!.cursor });
      pages.push(page.transactions.map((record) => record.hash));
    }
    expect(pages.map((hashes) => hashes.length)).toEqual([100, 100, 100, 100]);
    expect(pages.flat()).toEqual(sent.map((tx) => tx.hash).reverse());
    expect(await storedRows(dave)).toBe(0);
  });

  test('a handled transaction is listed at once with every filter applied and merged with stored history in order; it is stored and committed when the writer stops', async () => {
    const alice = randomAddress();
    const bob = randomAddress();
    // Older history, already in ClickHouse.
    const older = transaction(blockRef(chainId, 1, 1_700_000_000), 0, {
      from: bob,
      to: usdc,
      transfers: [{ asset: erc20(usdc), amount: '5000000', sender: bob, recipient: alice }],
    });
    const storedFacts = { lookup: (_chainId: string, address: string) => (address === usdc || address === '' ? { verified: true, isSpam: false } : undefined) };
    await createWalletHistoryStore(clickhouse).writeTransaction(older, walletRows(older, storedFacts));
    expect(await storedRows(alice)).toBe(1);

    const newer = transaction(blockRef(chainId, 2, 1_700_000_012), 0, {
      from: alice,
      to: bob,
      transfers: [{ asset: native, amount: '1000', sender: alice, recipient: bob }],
    });
    await producer.send(writerTopics.walletTransactions, [{ key: chainId, value: newer }]);
    const page = await eventually(
      () => list({ address: alice }),
      (response) => response.transactions.length === 2,
    );
    expect(page.transactions.map((record) => [record.hash, record.operationType])).toEqual([
      [newer.hash, 'send'],
      [older.hash, 'receive'],
    ]);
    // Only in memory: ClickHouse has the older row alone, and the offset is not committed.
    expect(await storedRows(alice)).toBe(1);
    expect((await commitsAndEnds()).map(({ committed, end }) => committed === end)).toEqual([false]);

    // Filters, search and the cursor apply to waiting rows as to stored ones.
    expect((await list({ address: alice, operationTypes: ['send'] })).transactions.map((record) => record.hash)).toEqual([newer.hash]);
    expect((await list({ address: alice, operationTypes: ['receive'] })).transactions.map((record) => record.hash)).toEqual([older.hash]);
    expect((await list({ address: alice, searchQuery: newer.hash })).transactions.map((record) => record.hash)).toEqual([newer.hash]);
    expect((await list({ address: alice, assetTypes: ['fungible'], searchQuery: bob })).transactions.map((record) => record.hash)).toEqual([
      newer.hash,
      older.hash,
    ]);
    const first = await list({ address: alice, pageSize: 1 });
    expect(first.transactions.map((record) => record.hash)).toEqual([newer.hash]);
    expect(first.hasMore).toBe(true);
    const second = await list({ address: alice, pageSize: 1, after: first.transactions[0]!.cursor });
    expect(second.transactions.map((record) => record.hash)).toEqual([older.hash]);
    expect((await list({ address: bob })).transactions.map((record) => record.hash)).toEqual([newer.hash, older.hash]);

    await writer.stop();
    expect(await storedRows(alice)).toBe(2);
    expect(await storedRows(bob)).toBe(2);
    // Committed to the partition's end: every message handled is stored.
    expect((await commitsAndEnds()).map(({ committed, end }) => committed === end)).toEqual([true]);
    // Stored and gone from memory: the pages kept before the round took its rows in, and each
    // equals the page ClickHouse alone answers (a store without memory).
    expect(memory.rows.waitingFor('wallet_transactions', alice)).toEqual([]);
    const fromClickHouse = createWalletHistoryStore(clickhouse);
    const clickHousePage = async (filter: { address: string; operationTypes?: string[]; limit?: number }) =>
      (await fromClickHouse.listWalletTransactions({ chainIds: [chainId], operationTypes: [], trash: 'no_filter', assetTypes: [], limit: 100, ...filter })).map(
        (record) => record.hash,
      );
    expect((await list({ address: alice })).transactions.map((record) => record.hash)).toEqual([newer.hash, older.hash]);
    expect(await clickHousePage({ address: alice })).toEqual([newer.hash, older.hash]);
    expect((await list({ address: alice, operationTypes: ['send'] })).transactions.map((record) => record.hash)).toEqual(
      await clickHousePage({ address: alice, operationTypes: ['send'] }),
    );
    expect((await list({ address: alice, pageSize: 1 })).transactions.map((record) => record.hash)).toEqual(
      await clickHousePage({ address: alice, limit: 2 }).then((hashes) => hashes.slice(0, 1)),
    );
    expect((await list({ address: bob })).transactions.map((record) => record.hash)).toEqual(await clickHousePage({ address: bob }));
  });
});
