import { setupClickHouse, testLogger, uniqueName } from '@wallet-api/core/testing';
import { AssetKind, WalletLegs, type WalletTransaction } from '@wallet-api/core/proto/events';
import { walletLegs, walletPart } from '@wallet-api/core/transactions';
import { createHistoryMemory } from '../src/store/history-memory.js';
import { encodeBody } from '../src/store/transaction-bodies.js';
import { createWalletHistoryStore, type WalletTransactionRow } from '../src/store/wallet-history-store.js';
import type { WalletTransactionFilter } from '../src/store/wallet-transaction-query.js';
import { blockRef, chainBlock, randomAddress, transaction, type BlockRef } from './wallet-history-fixtures.js';

const clickhouse = setupClickHouse();

/** A seeded generator: the same history on every run, so a failure can be read again. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

// Rows waiting in the indexer's memory are filtered, ordered and deduplicated in the process
// (waiting-page.ts) while stored ones are by the page query: one wallet's history kept each way,
// and a third way split between the two with repeats, must page alike under every filter.
describe("a wallet's waiting rows page exactly as its stored rows do", () => {
  const chains = [uniqueName('chain'), uniqueName('chain')];
  const [storedWallet, waitingWallet, splitWallet] = [randomAddress(), randomAddress(), randomAddress()];
  const token = randomAddress();
  const peer = randomAddress();
  const random = seeded(14);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const writeThrough = createWalletHistoryStore(clickhouse);
  const memory = createHistoryMemory({ clickhouse, logger: testLogger, storeEveryMs: 3_600_000 });
  const kept = createWalletHistoryStore(clickhouse, memory);
  const transactions: { transaction: WalletTransaction; reading: Omit<WalletTransactionRow, 'address'> }[] = [];
  const blocks: BlockRef[] = [];

  beforeAll(async () => {
    // Blocks on two chains sharing timestamps, several transactions in some: every part of the order is exercised.
    for (let height = 1; height <= 40; height += 1) {
      for (const chainId of chains) {
        if (random() < 0.3) continue;
        const block = blockRef(chainId, height, 1_700_000_000 + Math.floor(height / 2) * 12);
        blocks.push(block);
        for (let index = 0; index < 1 + Math.floor(random() * 3); index += 1) {
          transactions.push({
            transaction: transaction(block, index, { from: peer, to: token }),
            reading: {
              operationType: pick(['send', 'receive', 'trade', 'approve']),
              isTrash: random() < 0.2,
              assetTypes: pick([['fungible'], ['nft'], ['fungible', 'nft'], []]),
              tokenAddresses: pick([[''], [token], ['', token], []]),
              counterparties: pick([[peer], [], [randomAddress()]]),
            },
          });
        }
      }
    }
    const rowsOf = (address: string, items: typeof transactions) =>
      items.map((item) => ({ transaction: item.transaction, rows: [{ ...item.reading, address }] }));
    await (await writeThrough.writeTransactions(rowsOf(storedWallet, transactions))).durable;
    await kept.writeTransactions(rowsOf(waitingWallet, transactions));
    // The split wallet: a random part stored, the rest waiting, and some in both (a replay after a restart).
    const storedPart = transactions.filter(() => random() < 0.5);
    const waitingPart = transactions.filter((item) => !storedPart.includes(item) || random() < 0.3);
    await (await writeThrough.writeTransactions(rowsOf(splitWallet, storedPart))).durable;
    await kept.writeTransactions(rowsOf(splitWallet, waitingPart));
    // Orphaned blocks (one of them revived by a newer canonical row) drop out, stored or waiting.
    const [orphaned, revived] = [blocks[3]!, blocks[9]!];
    await writeThrough.recordRollbacks(
      [orphaned, revived].map((block) => ({
        chainId: block.chainId,
        commonAncestorNumber: String(block.number - 1),
        commonAncestorHash: '0x00',
        orphanedBlockHashes: [block.hash],
        orphanedBlockNumbers: [String(block.number)],
        sequence: '10',
      })),
    );
    await (await writeThrough.recordBlocks([chainBlock(revived, 11)])).durable;
    expect(memory.rows.waitingFor('wallet_transactions', waitingWallet)).toHaveLength(transactions.length);
  });

  afterAll(async () => {
    await memory.rows.close();
    await clickhouse.close();
  });

  const pageOf = async (address: string, filter: Partial<WalletTransactionFilter>) =>
    (await kept.listWalletTransactions({ address, chainIds: chains, operationTypes: [], trash: 'no_filter', assetTypes: [], limit: 25, ...filter })).map(
      (row) => `${row.chainId} ${row.blockNumber} ${row.transactionIndex} ${row.hash} ${row.operationType} ${row.isTrash}`,
    );

  test.each<[string, Partial<WalletTransactionFilter>]>([
    ['no filter', {}],
    ['every row', { limit: 1_000 }],
    ['one chain', { chainIds: [chains[1]!] }],
    ['operation types', { operationTypes: ['trade', 'approve'] }],
    ['only trash', { trash: 'only_trash' }],
    ['only non-trash', { trash: 'only_non_trash', limit: 1_000 }],
    ['asset types', { assetTypes: ['nft'] }],
    ['mined times', { minMinedAtMs: 1_700_000_036_001n, maxMinedAtMs: 1_700_000_144_999n, limit: 1_000 }],
    ['a counterparty', { search: { kind: 'address', address: peer } }],
    [
      'a token',
      {
        search: {
          kind: 'tokens',
          tokens: [
            { chainId: chains[0]!, address: token },
            { chainId: chains[1]!, address: '' },
          ],
        },
        limit: 1_000,
      },
    ],
    ['a cursor', { after: { minedAtMs: 1_700_000_120_000n, blockNumber: 20n, transactionIndex: 1, chainId: chains[0]! } }],
    [
      'a cursor and filters',
      {
        after: { minedAtMs: 1_700_000_180_000n, blockNumber: 31n, transactionIndex: 0, chainId: chains[1]! },
        trash: 'only_non_trash',
        assetTypes: ['fungible'],
      },
    ],
  ])('%s', async (_name, filter) => {
    const stored = await pageOf(storedWallet, filter);
    expect(stored.length).toBeGreaterThan(0);
    expect(await pageOf(waitingWallet, filter)).toEqual(stored);
    expect(await pageOf(splitWallet, filter)).toEqual(stored);
  });

  test('a hash search finds the transaction waiting or stored, never one of an orphaned block', async () => {
    const { hash } = transactions.find((item) => item.transaction.blockHash === blocks[5]!.hash)!.transaction;
    expect(await pageOf(waitingWallet, { search: { kind: 'hash', hash } })).toEqual(await pageOf(storedWallet, { search: { kind: 'hash', hash } }));
    const orphanedHash = transactions.find((item) => item.transaction.blockHash === blocks[3]!.hash)!.transaction.hash;
    expect(await pageOf(waitingWallet, { search: { kind: 'hash', hash: orphanedHash } })).toEqual([]);
    expect(await pageOf(storedWallet, { search: { kind: 'hash', hash: orphanedHash } })).toEqual([]);
  });

  test('the whole history streams oldest first, every page turned around, whether waiting, stored or split, in chunks of any size', async () => {
    const streamed = async (address: string, chainIds = chains, chunkSize?: number) => {
      const chunks: WalletLegs[][] = [];
      for await (const chunk of kept.streamLegs(address, chainIds, chunkSize)) chunks.push(chunk.map((legs) => WalletLegs.decode(legs)));
      return chunks;
    };
    const paged = async (chainIds: string[]) =>
      (await kept.listWalletTransactions({ address: storedWallet, chainIds, operationTypes: [], trash: 'no_filter', assetTypes: [], limit: 1_000 }))
        .map((row) => walletLegs(row.transaction, storedWallet))
        .reverse();
    const oldestFirst = await paged(chains);
    expect(oldestFirst.length).toBeGreaterThan(40);
    for (const address of [storedWallet, waitingWallet, splitWallet]) {
      const chunks = await streamed(address);
      expect(chunks).toHaveLength(1);
      expect(chunks.flat()).toEqual(oldestFirst);
      const small = await streamed(address, chains, 1_000);
      expect(small.length).toBeGreaterThan(1);
      expect(small.flat()).toEqual(oldestFirst);
      expect((await streamed(address, [chains[1]!])).flat()).toEqual(await paged([chains[1]!]));
    }
    expect(await streamed(randomAddress())).toEqual([]);
  });

  test('rows stored before their legs were stream the legs of their bodies, in order among rows stored with legs, once when stored both ways', async () => {
    const wallet = randomAddress();
    const received = (block: BlockRef, index: number, amount: string) =>
      transaction(block, index, {
        from: peer,
        to: token,
        transfers: [{ asset: { kind: AssetKind.ASSET_KIND_ERC20, address: token, tokenId: '' }, amount, sender: peer, recipient: wallet }],
      });
    const chain = uniqueName('chain');
    const older = [1, 2, 3].map((height) => received(blockRef(chain, height, 1_700_100_000 + height), 0, String(height * 10)));
    const newer = [4, 5].map((height) => received(blockRef(chain, height, 1_700_100_000 + height), 0, String(height * 10)));
    // As a writer before the `legs` column stored them: no legs, the wallet's part as the body.
    await clickhouse.insert(
      'wallet_transactions',
      older.map((item) => ({
        chain_id: chain,
        address: wallet,
        block_number: item.blockNumber,
        block_hash: item.blockHash,
        block_timestamp: Number(item.blockTimestamp),
        transaction_index: item.transactionIndex,
        hash: item.hash,
        operation_type: 'receive',
        is_trash: 0,
        asset_types: ['fungible'],
        token_addresses: [token],
        counterparties: [peer],
        body: encodeBody(walletPart(item, wallet)),
      })),
    );
    const rows = [{ address: wallet, operationType: 'receive', isTrash: false, assetTypes: ['fungible'], tokenAddresses: [token], counterparties: [peer] }];
    // The newer ones stored with legs, and one older one again (a replay after the upgrade): stored both ways, streamed once.
    await (await writeThrough.writeTransactions([...newer, older[1]!].map((item) => ({ transaction: item, rows })))).durable;
    for (const chunkSize of [undefined, 1]) {
      const legs: WalletLegs[] = [];
      for await (const chunk of writeThrough.streamLegs(wallet, [chain], chunkSize)) legs.push(...chunk.map((encoded) => WalletLegs.decode(encoded)));
      expect(legs.map((leg) => [leg.blockNumber, leg.legs])).toEqual(
        [1, 2, 3, 4, 5].map((height) => [String(height), [{ asset: token, amount: String(height * 10) }]]),
      );
      expect(legs).toEqual([...older, ...newer].map((item) => walletLegs(item, wallet)));
    }
  });

  // Last: it stores what waits. Pages and orphan states read before are kept by the process until
  // something reaches the tables; a round of INSERTs and a rollback through the same memory both do.
  test('kept pages follow what reaches the tables: the waiting rows stored, then a rollback of one of their blocks', async () => {
    const everyRow = { limit: 1_000 };
    const before = await pageOf(waitingWallet, everyRow);
    expect(before).toEqual(await pageOf(storedWallet, everyRow));

    await memory.rows.flush();
    expect(memory.rows.waitingFor('wallet_transactions', waitingWallet)).toEqual([]);
    expect(await pageOf(waitingWallet, everyRow)).toEqual(before);

    const rolledBack = blocks.find(
      (block) => block !== blocks[3] && block !== blocks[9] && transactions.some((item) => item.transaction.blockHash === block.hash),
    )!;
    await kept.recordRollbacks([
      {
        chainId: rolledBack.chainId,
        commonAncestorNumber: String(rolledBack.number - 1),
        commonAncestorHash: '0x00',
        orphanedBlockHashes: [rolledBack.hash],
        orphanedBlockNumbers: [String(rolledBack.number)],
        sequence: '20',
      },
    ]);
    const after = await pageOf(waitingWallet, everyRow);
    const gone = transactions.filter((item) => item.transaction.blockHash === rolledBack.hash).map((item) => item.transaction.hash);
    expect(after).toEqual(before.filter((line) => !gone.some((hash) => line.includes(hash))));
    expect(after.length).toBe(before.length - gone.length);
  });
});
