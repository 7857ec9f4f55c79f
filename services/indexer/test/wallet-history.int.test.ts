import { sql } from '@wallet-api/core/clickhouse';
import { createGrpcClient, serverStream, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { createProducer, ensureTopics, type MessageProducer } from '@wallet-api/core/kafka';
import { WalletLegs, WalletTransaction, type BalanceChange, type ChainRollback } from '@wallet-api/core/proto/events';
import {
  IndexerClient,
  TrashFilter,
  type ListWalletTransactionsRequest,
  type StreamWalletLegsRequest,
  type TransactionCursor,
  type TransactionRecord,
} from '@wallet-api/core/proto/indexer';
import { setupChangeVersions, setupClickHouse, setupKafka, testLogger, uniqueName } from '@wallet-api/core/testing';
import { createTransactionWriter, type TransactionWriter } from '../src/consume/transaction-writer.js';
import { historyCursor, walletLegs, walletPart } from '@wallet-api/core/transactions';
import { indexerService } from '../src/grpc/indexer-service.js';
import { walletRows } from '../src/consume/wallet-rows.js';
import { createWalletHistoryStore } from '../src/store/wallet-history-store.js';
import { retiredChainId, startReferenceDataFixture, type RunningReferenceData } from './reference-data-fixture.js';
import {
  blockRef,
  chainBlock,
  erc20,
  erc721,
  native,
  randomAddress,
  token,
  transaction,
  type BlockRef,
  eventually,
  uniqueWriterTopics,
} from './wallet-history-fixtures.js';

const clickhouse = setupClickHouse();
const kafka = setupKafka('wallet-history-test');
const changes = setupChangeVersions();

describe('wallet history: Kafka topics -> ClickHouse -> ListWalletTransactions', () => {
  const chainId = uniqueName('chain');
  const spamToken = randomAddress();
  const usdc = randomAddress();
  const router = randomAddress();
  const writerTopics = uniqueWriterTopics();
  let referenceData: RunningReferenceData;
  let writer: TransactionWriter;
  let producer: MessageProducer;
  let grpc: GrpcServer;
  let indexer: IndexerClient;
  let sequence = 0;
  const nextSequence = () => (sequence += 1);

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
  const hashes = (records: TransactionRecord[]) => records.map((record) => record.hash);

  const sendTransactions = (transactions: WalletTransaction[]) =>
    producer.send(
      writerTopics.walletTransactions,
      transactions.map((value) => ({ key: value.chainId, value })),
    );
  const sendBlock = (block: BlockRef, blockSequence = nextSequence()) =>
    producer.send(writerTopics.chainBlocks, [{ key: block.chainId, value: chainBlock(block, blockSequence) }]);
  const sendRollback = (orphaned: BlockRef[], rollbackSequence = nextSequence()) => {
    const value: ChainRollback = {
      chainId,
      commonAncestorNumber: String(orphaned[0]!.number - 1),
      commonAncestorHash: '0x00',
      orphanedBlockHashes: orphaned.map((block) => block.hash),
      orphanedBlockNumbers: orphaned.map((block) => String(block.number)),
      sequence: String(rollbackSequence),
    };
    return producer.send(writerTopics.chainRollbacks, [{ key: chainId, value }]);
  };

  beforeAll(async () => {
    await ensureTopics(kafka, Object.values(writerTopics));
    referenceData = await startReferenceDataFixture({
      tokens: [
        token(chainId, '', { interface: 1, name: 'Ether', symbol: 'ETH', decimals: 18, fungibleId: 'eth', verified: true }),
        token(chainId, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6, fungibleId: 'usdc', verified: true }),
        token(chainId, spamToken, { name: 'Claim rewards', symbol: 'SCAM', isSpam: true }),
      ],
      dapps: [
        {
          chainId,
          address: router,
          dapp: {
            id: 'swapper',
            name: 'Swapper',
            description: '',
            iconUrl: 'https://icons.test/swapper.png',
            url: '',
            managePositionsUrl: '',
            externalLinks: [],
          },
        },
      ],
    });
    writer = createTransactionWriter({
      kafka,
      clickhouse,
      referenceData: referenceData.client,
      versions: changes.versions,
      logger: testLogger,
      groupId: uniqueName('writer'),
      topics: writerTopics,
    });
    await writer.start();
    producer = await createProducer(kafka);
    grpc = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [indexerService({ clickhouse, referenceData: referenceData.client })],
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

  test('every message sent twice reads once: transactions per wallet, balance changes per asset', async () => {
    const alice = randomAddress();
    const bob = randomAddress();
    const blocks = [1, 2, 3].map((number) => blockRef(chainId, number, 1_700_000_000 + number * 12));
    const transactions = blocks.flatMap((block) => [
      transaction(block, 0, { from: alice, to: bob, transfers: [{ asset: native, amount: '1000', sender: alice, recipient: bob }] }),
      transaction(block, 1, { from: bob, to: usdc, transfers: [{ asset: erc20(usdc), amount: '5000000', sender: bob, recipient: alice }] }),
    ]);
    const changes: BalanceChange[] = transactions.map((tx) => ({
      chainId,
      wallet: alice,
      asset: native,
      blockNumber: tx.blockNumber,
      blockHash: tx.blockHash,
      blockTimestamp: tx.blockTimestamp,
      transactionHash: tx.hash,
      transactionIndex: tx.transactionIndex,
      amount: tx.transactionIndex === 0 ? '-1000' : '0',
    }));
    for (let round = 0; round < 2; round++) {
      await sendTransactions(transactions);
      await producer.send(
        writerTopics.balanceChanges,
        changes.map((value) => ({ key: `${chainId}:${alice}`, value })),
      );
      for (const block of blocks) await sendBlock(block);
    }
    // One partition per key keeps order, so once these last messages are stored the duplicates were handled too.
    const sentinelBlock = blockRef(chainId, 4, 1_700_000_100);
    const sentinel = transaction(sentinelBlock, 0, { from: alice, to: bob, transfers: [{ asset: native, amount: '1', sender: alice, recipient: bob }] });
    await sendTransactions([sentinel]);
    await producer.send(writerTopics.balanceChanges, [
      { key: `${chainId}:${alice}`, value: { ...changes[0]!, blockHash: sentinel.blockHash, blockNumber: '4', transactionHash: sentinel.hash } },
    ]);
    await eventually(
      () => list({ address: alice }),
      (response) => response.transactions.some((record) => record.hash === sentinel.hash),
    );
    await eventually(
      () => clickhouse.query<{ n: string }>(sql`SELECT count() AS n FROM balance_changes FINAL WHERE chain_id = ${chainId} AND address = ${alice}`),
      (rows) => rows[0]!.n === '7',
    );

    const perWallet = await clickhouse.query<{ address: string; n: string }>(
      sql`SELECT address, count() AS n FROM wallet_transactions FINAL WHERE chain_id = ${chainId} AND address IN (${alice}, ${bob}) GROUP BY address ORDER BY address`,
    );
    expect(Object.fromEntries(perWallet.map((row) => [row.address, Number(row.n)]))).toEqual({ [alice]: 7, [bob]: 7 });
    const exact = await clickhouse.query<{ amount: string; amount_float: number }>(
      sql`SELECT amount, amount_float FROM balance_changes FINAL WHERE chain_id = ${chainId} AND address = ${alice} AND transaction_index = 0 AND block_number = 1`,
    );
    expect(exact).toEqual([{ amount: '-1000', amount_float: -1000 }]);

    const aliceView = await list({ address: alice });
    expect(hashes(aliceView.transactions)).toEqual([sentinel, ...[...transactions].reverse()].map((tx) => tx.hash));
    const received = aliceView.transactions.find((record) => record.hash === transactions[1]!.hash)!;
    expect(received.operationType).toBe('receive');
    expect(received.transfers).toEqual([
      expect.objectContaining({
        direction: 'in',
        amount: '5000000',
        token: expect.objectContaining({ info: expect.objectContaining({ symbol: 'USDC', decimals: 6 }) }),
      }),
    ]);
    expect(received.feeToken?.info?.symbol).toBe('ETH');
    expect((await list({ address: bob })).transactions.find((record) => record.hash === transactions[1]!.hash)?.operationType).toBe('send');
  });

  test('a transaction of a chain reference data refuses is stored without token facts instead of stopping the partition', async () => {
    const alice = randomAddress();
    const refused = transaction(blockRef(retiredChainId, 1, 1_700_000_500), 0, {
      from: alice,
      to: usdc,
      transfers: [{ asset: erc20(usdc), amount: '7', sender: alice, recipient: usdc }],
    });
    const after = transaction(blockRef(chainId, 9, 1_700_000_600), 0, {
      from: alice,
      to: usdc,
      transfers: [{ asset: erc20(usdc), amount: '8', sender: alice, recipient: usdc }],
    });
    await sendTransactions([refused, after]);
    await eventually(
      () => list({ address: alice }),
      (response) => response.transactions.some((record) => record.hash === after.hash),
    );
    const stored = await clickhouse.query<{ hash: string }>(
      sql`SELECT hash FROM wallet_transactions WHERE chain_id = ${retiredChainId} AND address = ${alice}`,
    );
    expect(stored.map((row) => row.hash)).toEqual([refused.hash]);
  });

  test('a rollback hides the orphaned blocks at once; a newer ChainBlock revives one; a stale rollback changes nothing', async () => {
    const wallet = randomAddress();
    const other = randomAddress();
    const blocks = [10, 11, 12].map((number) => blockRef(chainId, number, 1_700_001_000 + number * 12));
    const transactions = blocks.flatMap((block) =>
      [0, 1].map((index) =>
        transaction(block, index, { from: other, to: wallet, transfers: [{ asset: native, amount: '7', sender: other, recipient: wallet }] }),
      ),
    );
    await sendTransactions(transactions);
    for (const block of blocks) await sendBlock(block);
    await eventually(
      () => list({ address: wallet }),
      (response) => response.transactions.length === 6,
    );

    await sendRollback([blocks[1]!, blocks[2]!]);
    const afterRollback = await eventually(
      () => list({ address: wallet }),
      (response) => response.transactions.length < 6,
    );
    expect(hashes(afterRollback.transactions)).toEqual([transactions[1]!.hash, transactions[0]!.hash]);

    await sendBlock(blocks[2]!);
    const revived = await eventually(
      () => list({ address: wallet }),
      (response) => response.transactions.length === 4,
    );
    expect(hashes(revived.transactions)).toEqual([transactions[5], transactions[4], transactions[1], transactions[0]].map((tx) => tx!.hash));

    // A rollback older (by sequence) than the block's own message loses, whichever is read last.
    const staleSequence = nextSequence();
    await sendBlock(blocks[0]!);
    await sendRollback([blocks[0]!], staleSequence);
    await sendRollback([blocks[2]!]);
    // The three messages come over two topics, stored on their own schedules; between them a list can
    // show a mix, so the answer is read once the block's row and the last rollback's are in. Rollbacks
    // are read in order, so the stale one is stored by then (or already merged away by its newer row).
    await eventually(
      () =>
        clickhouse.query<{ n: string }>(
          sql`SELECT count() AS n FROM block_states WHERE chain_id = ${chainId}
          AND ((block_hash = ${blocks[0]!.hash} AND sequence = ${staleSequence + 1}) OR (block_hash = ${blocks[2]!.hash} AND sequence = ${staleSequence + 2}))`,
        ),
      (rows) => rows[0]!.n === '2',
    );
    expect(hashes((await list({ address: wallet })).transactions)).toEqual([transactions[1]!.hash, transactions[0]!.hash]);
  });

  test('pages follow the cursor without skipping or repeating while newer blocks arrive', async () => {
    const wallet = randomAddress();
    const other = randomAddress();
    const pay = (block: BlockRef, index: number) =>
      transaction(block, index, { from: other, to: wallet, transfers: [{ asset: native, amount: '1', sender: other, recipient: wallet }] });
    const sameTime = 1_700_002_000;
    // Two blocks share a timestamp, so block number and index break ties.
    const blocks = [blockRef(chainId, 20, sameTime), blockRef(chainId, 21, sameTime), blockRef(chainId, 22, sameTime + 12)];
    const initial = [
      pay(blocks[0]!, 0),
      pay(blocks[0]!, 1),
      pay(blocks[0]!, 2),
      pay(blocks[1]!, 0),
      pay(blocks[1]!, 3),
      pay(blocks[2]!, 0),
      pay(blocks[2]!, 1),
    ];
    await sendTransactions(initial);
    await eventually(
      () => list({ address: wallet }),
      (response) => response.transactions.length === initial.length,
    );

    const seen: TransactionRecord[] = [];
    let page = await list({ address: wallet, pageSize: 3 });
    seen.push(...page.transactions);
    let round = 0;
    while (page.hasMore) {
      round += 1;
      const newer = pay(blockRef(chainId, 30 + round, sameTime + 100 + round), 0);
      await sendTransactions([newer]);
      await eventually(
        () => list({ address: wallet, pageSize: 1 }),
        (response) => response.transactions[0]?.hash === newer.hash,
      );
      page = await list({ address: wallet, pageSize: 3, after: page.transactions.at(-1)!.cursor });
      seen.push(...page.transactions);
    }
    expect(round).toBe(2);
    const expected = [...initial].sort((a, b) => Number(b.blockNumber) - Number(a.blockNumber) || b.transactionIndex - a.transactionIndex);
    expect(hashes(seen)).toEqual(expected.map((tx) => tx.hash));
  });

  test('the decoded history pages newest first and its legs stream oldest first as sent; orphaned blocks are left out; page sizes are checked', async () => {
    const wallet = randomAddress();
    const other = randomAddress();
    const pay = (block: BlockRef, index: number, amount: string) =>
      transaction(block, index, {
        from: other,
        to: wallet,
        transfers: [
          { asset: native, amount, sender: other, recipient: wallet },
          { asset: erc20(usdc), amount: '5', sender: wallet, recipient: other },
        ],
      });
    const blocks = [blockRef(chainId, 60, 1_700_003_000), blockRef(chainId, 61, 1_700_003_000), blockRef(chainId, 62, 1_700_003_012)];
    const sent = [pay(blocks[0]!, 0, '1'), pay(blocks[0]!, 1, '2'), pay(blocks[1]!, 0, '3'), pay(blocks[2]!, 4, '4')];
    for (const block of blocks) await sendBlock(block);
    await sendTransactions(sent);
    const history = (after?: TransactionCursor, pageSize = 3) =>
      unary(indexer, indexer.listWalletHistory, { address: wallet.toUpperCase().replace('0X', '0x'), chainIds: [chainId], after, pageSize });
    await eventually(
      () => history(undefined, 1_000),
      (response) => response.transactions.length === sent.length,
    );
    const first = await history();
    expect(first.hasMore).toBe(true);
    const second = await history(historyCursor(first.transactions.at(-1)!));
    expect(second.hasMore).toBe(false);
    // Each is the wallet's part of what was sent: the stored body keeps its own transfers only.
    const own = sent.map((tx) => walletPart(tx, wallet));
    expect([...first.transactions, ...second.transactions]).toEqual([...own].reverse());

    const stream = async (request: Partial<StreamWalletLegsRequest> = {}) => {
      const streamed: WalletLegs[] = [];
      const chunks = serverStream(indexer, indexer.streamWalletLegs, { address: wallet.toUpperCase().replace('0X', '0x'), chainIds: [chainId], ...request });
      for await (const chunk of chunks) streamed.push(...chunk.legs.map((legs) => WalletLegs.decode(legs)));
      return streamed;
    };
    // The legs of each: what a replay reads of the wallet's part.
    const legs = own.map((tx) => walletLegs(tx, wallet));
    expect(legs.some((leg) => leg.legs.length > 0)).toBe(true);
    expect(await stream()).toEqual(legs);

    await sendRollback([blocks[2]!]);
    await eventually(
      () => history(undefined, 1_000),
      (response) => response.transactions.length === 3,
    );
    expect(await stream()).toEqual(legs.slice(0, 3));

    for (const pageSize of [0, 1_001]) {
      await expect(history(undefined, pageSize)).rejects.toMatchObject({ code: 3, details: 'page size must be 1 to 1000' });
    }
    await expect(stream({ address: '' })).rejects.toMatchObject({ code: 3, details: 'address is required' });
    await expect(stream({ chainIds: [] })).rejects.toMatchObject({ code: 3, details: 'chain_ids needs at least one chain' });
  });

  test("a payout to 40 wallets stores each recipient's part: its own transfer, not all 40, and the same page as from the whole", async () => {
    const payer = randomAddress();
    const recipients = Array.from({ length: 40 }, () => randomAddress());
    const block = blockRef(chainId, 70, 1_700_004_000);
    const payout = transaction(block, 0, {
      from: payer,
      to: router,
      contract: router,
      transfers: recipients.map((recipient, index) => ({ asset: erc20(usdc), amount: String(1_000 + index), sender: payer, recipient })),
    });
    await sendBlock(block);
    await sendTransactions([payout]);
    await eventually(
      () => list({ address: recipients.at(-1)! }),
      (response) => response.transactions.length === 1,
    );
    for (const [index, recipient] of recipients.entries()) {
      const [record] = (await list({ address: recipient })).transactions;
      expect(record!.transfers.map((transfer) => [transfer.recipient, transfer.amount, transfer.direction])).toEqual([
        [recipient, String(1_000 + index), 'in'],
      ]);
      expect(record!.operationType).toBe('receive');
    }
    expect((await list({ address: payer })).transactions[0]!.transfers).toHaveLength(40);
    const whole = WalletTransaction.encode(payout).finish().length;
    const sizes = await clickhouse.query<{ address: string; size: string }>(
      sql`SELECT address, length(body) AS size FROM wallet_transactions WHERE hash = ${payout.hash}`,
    );
    const sizeOf = new Map(sizes.map((row) => [row.address, Number(row.size)]));
    // Base64 of the payer's whole body; each recipient's is a small fraction of it.
    expect(sizeOf.get(payer)).toBeGreaterThanOrEqual(whole);
    for (const recipient of recipients) expect(sizeOf.get(recipient)).toBeLessThan(whole / 8);
  });

  describe('filters', () => {
    const wallet = randomAddress();
    const friend = randomAddress();
    const spammer = randomAddress();
    const collection = randomAddress();
    const block = (number: number) => blockRef(chainId, number, 1_700_010_000 + number);
    const sent = transaction(block(100), 0, { from: wallet, to: friend, transfers: [{ asset: native, amount: '10', sender: wallet, recipient: friend }] });
    const spam = transaction(block(101), 0, {
      from: spammer,
      to: spamToken,
      transfers: [{ asset: erc20(spamToken), amount: '1', sender: spammer, recipient: wallet }],
    });
    const nft = transaction(block(102), 0, {
      from: friend,
      to: collection,
      transfers: [{ asset: erc721(collection, '42'), amount: '1', sender: friend, recipient: wallet }],
    });
    const swap = transaction(block(103), 0, {
      from: wallet,
      to: router,
      actType: 'trade',
      contract: router,
      methodId: '0x38ed1739',
      methodName: 'swapExactTokensForTokens',
      transfers: [
        { asset: native, amount: '100', sender: wallet, recipient: router },
        { asset: erc20(usdc), amount: '250000', sender: router, recipient: wallet },
      ],
    });
    const approve = transaction(block(104), 0, {
      from: wallet,
      to: usdc,
      actType: 'approve',
      contract: usdc,
      approvals: [{ actId: 1, asset: erc20(usdc), owner: wallet, spender: router, amount: '1000000' }],
    });

    beforeAll(async () => {
      const store = createWalletHistoryStore(clickhouse);
      const facts = {
        lookup: (_chainId: string, address: string) =>
          address === spamToken ? { verified: false, isSpam: true } : address === usdc || address === '' ? { verified: true, isSpam: false } : undefined,
      };
      for (const tx of [sent, spam, nft, swap, approve]) await store.writeTransaction(tx, walletRows(tx, facts));
    });

    const ids = async (request: Partial<ListWalletTransactionsRequest>) => hashes((await list({ address: wallet, ...request })).transactions);

    test('trash: only_trash, only_non_trash, no_filter', async () => {
      expect(await ids({ trash: TrashFilter.TRASH_FILTER_ONLY_TRASH })).toEqual([spam.hash]);
      expect(await ids({ trash: TrashFilter.TRASH_FILTER_ONLY_NON_TRASH })).toEqual([approve, swap, nft, sent].map((tx) => tx.hash));
      expect(await ids({})).toHaveLength(5);
    });

    test('operation types, asset types and time range', async () => {
      expect(await ids({ operationTypes: ['trade', 'approve'] })).toEqual([approve.hash, swap.hash]);
      expect(await ids({ operationTypes: ['send'] })).toEqual([sent.hash]);
      expect(await ids({ assetTypes: ['nft'] })).toEqual([nft.hash]);
      expect(await ids({ assetTypes: ['fungible'] })).toEqual([swap, spam, sent].map((tx) => tx.hash));
      expect(await ids({ minMinedAtMs: String((1_700_010_000 + 102) * 1000), maxMinedAtMs: String((1_700_010_000 + 103) * 1000) })).toEqual([
        swap.hash,
        nft.hash,
      ]);
      expect(await ids({ minMinedAtMs: String((1_700_010_000 + 102) * 1000 + 1) })).toEqual([approve.hash, swap.hash]);
    });

    test('search by hash, counterparty, token contract and symbol', async () => {
      expect(await ids({ searchQuery: swap.hash.toUpperCase().replace('0X', '0x') })).toEqual([swap.hash]);
      expect(await ids({ searchQuery: friend })).toEqual([nft.hash, sent.hash]);
      expect(await ids({ searchQuery: collection })).toEqual([nft.hash]);
      expect(await ids({ searchQuery: 'usdc' })).toEqual([approve.hash, swap.hash]);
      expect(await ids({ searchQuery: 'ETH' })).toEqual([swap.hash, sent.hash]);
      expect(await ids({ searchQuery: 'NOSUCHTOKEN' })).toEqual([]);
    });

    test('records carry the dapp, method, acts, approvals and NFT facts', async () => {
      const records = (await list({ address: wallet })).transactions;
      const trade = records.find((record) => record.hash === swap.hash)!;
      expect(trade.application).toEqual({
        contractAddress: router,
        dapp: expect.objectContaining({ id: 'swapper', name: 'Swapper' }),
        methodId: '0x38ed1739',
        methodName: 'swapExactTokensForTokens',
      });
      expect(trade.acts).toEqual([
        expect.objectContaining({ id: 1, type: 'trade', contractAddress: router, dapp: expect.objectContaining({ id: 'swapper' }) }),
      ]);
      expect(trade.transfers.map((transfer) => transfer.direction)).toEqual(['out', 'in']);
      const approval = records.find((record) => record.hash === approve.hash)!;
      expect(approval.approvals).toEqual([expect.objectContaining({ owner: wallet, spender: router, amount: '1000000' })]);
      expect(approval.application).toBeUndefined();
      const received = records.find((record) => record.hash === nft.hash)!;
      expect(received.transfers[0]!.token!.asset).toEqual(erc721(collection, '42'));
    });

    test('INVALID_ARGUMENT for a page size out of range', async () => {
      await expect(list({ address: wallet, pageSize: 101 })).rejects.toMatchObject({ code: 3 });
      await expect(list({ address: wallet, pageSize: 0 })).rejects.toMatchObject({ code: 3 });
    });
  });
});
