import { createSolanaRpc } from '@solana/kit';
import { eventually } from '@wallet-api/core/testing';
import { createSolanaLedger, startSolanaRpcServer, type SolanaRpcServer } from '../../../devnet/src/solana/index.js';
import { buildSolanaWorld } from '../../../devnet/src/solana/world.js';
import type { SolanaWorldManifest } from '../../../devnet/src/solana/world-manifest.js';
import { solanaLamports, solanaTokenHoldings } from '../../../devnet/src/truth/index.js';
import { collectPublished, setupIndexing, type IndexingHarness, type Published } from './setup-indexing.js';

// The Solana indexer against a Solana chain of its own (the devnet's LiteSVM JSON-RPC server with
// a small world) and the real Kafka and PostgreSQL: every block getBlocks lists is published once,
// in order, with the node's blockhash, parent and transactions; summed from slot 0, the balance
// changes equal every wallet's SOL and token accounts; a chain replaced behind the URL publishes
// nothing of the new chain.

const chainId = `solana-test-${Date.now()}`;
let world: SolanaWorldManifest;
let server: SolanaRpcServer;
let harness: IndexingHarness;
let published: Published & { stop(): Promise<void> };
let stopIndexer: () => Promise<void>;

beforeAll(async () => {
  const ledger = createSolanaLedger();
  world = await buildSolanaWorld(ledger, { seed: 'indexer-test', walletCount: 8, days: 30, endTimestamp: 1_790_000_000 });
  server = await startSolanaRpcServer({ ledger, port: 0, slotIntervalMs: 0 });
  harness = await setupIndexing();
  // Prisma's first query loads its engine with a dynamic import, which jest allows inside a hook only.
  await harness.prisma.indexedBlock.count();
  published = await collectPublished(harness.kafka, harness.topics, chainId);
  stopIndexer = harness.runIndexer({ chainId, rpcUrl: server.url, family: 'solana' });
}, 120_000);

afterAll(async () => {
  await published?.stop();
  await harness?.close();
  await server?.close();
});

test('every block is published once, in order, as the node has it; transactions and their fees as getBlock lists them', async () => {
  const rpc = createSolanaRpc(server.url);
  const slots = await rpc.getBlocks(0n, BigInt(world.endSlot)).send();
  await eventually(() => expect(published.blocks.length).toBe(slots.length), 60_000);
  expect(published.rollbacks).toEqual([]);
  expect(published.blocks.map((block) => block.number)).toEqual(slots.map(String));
  let transactions = 0;
  for (const block of published.blocks) {
    const node = (await rpc
      .getBlock(BigInt(block.number), { encoding: 'json', maxSupportedTransactionVersion: 0, transactionDetails: 'full', rewards: false })
      .send())!;
    expect({ slot: block.number, hash: block.hash, parent: block.parentHash, time: block.timestamp, count: block.transactionCount }).toEqual({
      slot: block.number,
      hash: node.blockhash,
      parent: node.previousBlockhash,
      time: String(node.blockTime),
      count: node.transactions.length,
    });
    transactions += node.transactions.length;
    for (const entry of node.transactions) {
      const signature = entry.transaction.signatures[0]!;
      const decoded = published.transactions.filter((tx) => tx.hash === signature);
      expect({ signature, count: decoded.length, fee: decoded[0]?.fee, failed: decoded[0]?.failed, from: decoded[0]?.from }).toEqual({
        signature,
        count: 1,
        fee: entry.meta!.fee.toString(),
        failed: entry.meta!.err !== null,
        from: entry.transaction.message.accountKeys[0],
      });
    }
  }
  expect(published.transactions).toHaveLength(transactions);
  // Sequences only grow.
  const sequences = published.blocks.map((block) => BigInt(block.sequence));
  expect(sequences).toEqual([...sequences].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
}, 120_000);

test("summed from slot 0, the balance changes equal every wallet's lamports and token accounts", async () => {
  const rpc = createSolanaRpc(server.url);
  const sums = new Map<string, bigint>();
  for (const change of published.balanceChanges) {
    const key = `${change.wallet}|${change.asset?.address ?? ''}`;
    sums.set(key, (sums.get(key) ?? 0n) + BigInt(change.amount));
  }
  // The funder's lamports were set at genesis, in no transaction: every other wallet's came in one.
  for (const wallet of world.wallets.map((entry) => entry.address)) {
    const held = new Map<string, bigint>([[`${wallet}|`, await solanaLamports(rpc, wallet)]]);
    for (const holding of await solanaTokenHoldings(rpc, wallet)) held.set(`${wallet}|${holding.mint}`, holding.amount);
    for (const [key, amount] of held) expect({ key, sum: sums.get(key) ?? 0n }).toEqual({ key, sum: amount });
    // Tokens the wallet no longer holds (sent away, accounts closed) sum to zero.
    for (const [key, sum] of sums) if (key.startsWith(`${wallet}|`) && !held.has(key)) expect({ key, sum }).toEqual({ key, sum: 0n });
  }
}, 60_000);

test('a chain replaced behind the URL (another world) publishes nothing of it', async () => {
  await stopIndexer();
  await server.close();
  const other = createSolanaLedger();
  await buildSolanaWorld(other, { seed: 'indexer-test-other', walletCount: 4, days: 30, endTimestamp: 1_790_000_000 });
  // Past the first chain's head, so the replacement's blocks are new slots to the indexer.
  for (let index = 0; index < 40; index++) other.seal(1_790_000_000 + index);
  server = await startSolanaRpcServer({ ledger: other, port: Number(new URL(server.url).port), slotIntervalMs: 0 });
  const before = published.blocks.length;
  stopIndexer = harness.runIndexer({ chainId, rpcUrl: server.url, family: 'solana' });
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(published.blocks.length).toBe(before);
  await stopIndexer();
}, 60_000);
