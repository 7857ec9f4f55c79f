import { parseEther, type Address, type Hash } from 'viem';
import { uniqueName } from '@wallet-api/core/testing';
import { collectPublished, eventually, setupIndexing, startOwnChain, type IndexingHarness, type OwnChain, type Published } from './setup-indexing.js';

// The indexer pipeline against a chain of its own (anvil) and the real Kafka and PostgreSQL:
// what reaches the topics, in what order, across reorgs and restarts.
const sender: Address = '0x00000000000000000000000000000000000f0110';
const finalityDepth = 5;

let chain: OwnChain;
let harness: IndexingHarness;
let clock = 1_700_000_000;

beforeAll(async () => {
  chain = await startOwnChain();
  harness = await setupIndexing();
  await chain.session.setBalance(sender, parseEther('1000'));
});

afterAll(async () => {
  await harness?.close();
  await chain?.stop();
});

/** Mines `count` blocks, each paying `perBlock` recipients named after the branch. */
async function mineBlocks(count: number, branch: number, perBlock = 2): Promise<void> {
  for (let block = 0; block < count; block++) {
    for (let index = 0; index < perBlock; index++) {
      const to = `0x${branch.toString(16).padStart(8, '0')}${(block * perBlock + index + 1).toString(16).padStart(32, '0')}` as Address;
      await chain.session.send({ from: sender, to, value: BigInt(1 + index), gas: 21_000n });
    }
    await chain.session.mine((clock += 12));
  }
}

async function head(): Promise<{ number: bigint; hash: Hash }> {
  const block = await chain.session.client.getBlock();
  return { number: block.number, hash: block.hash };
}

async function canonicalHashes(): Promise<string[]> {
  const { number } = await head();
  const hashes: string[] = [];
  for (let height = 0n; height <= number; height++) hashes.push((await chain.session.client.getBlock({ blockNumber: height })).hash);
  return hashes;
}

/** The branch a consumer ends up with: blocks in arrival order, each rollback dropping what it orphans. */
function consumerView(published: Published): string[] {
  const events = [
    ...published.blocks.map((block) => ({ sequence: BigInt(block.sequence), apply: (view: string[]) => void view.push(block.hash) })),
    ...published.rollbacks.map((rollback) => ({
      sequence: BigInt(rollback.sequence),
      apply: (view: string[]) => {
        for (const hash of rollback.orphanedBlockHashes) view.splice(view.indexOf(hash), 1);
      },
    })),
  ].sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
  const view: string[] = [];
  for (const event of events) event.apply(view);
  return view;
}

test('publishes every block once, in order, with its transactions, and checkpoints it', async () => {
  const chainId = uniqueName('chain');
  await mineBlocks(12, 1);
  const published = await collectPublished(harness.kafka, harness.topics, chainId);
  const stop = harness.runIndexer({ chainId, rpcUrl: chain.rpcUrl, finalityDepth });
  try {
    const expected = await canonicalHashes();
    await eventually(() => expect(published.blocks.map((block) => block.hash)).toEqual(expected));
    const sequences = published.blocks.map((block) => BigInt(block.sequence));
    expect([...sequences].sort((a, b) => (a < b ? -1 : 1))).toEqual(sequences);
    expect(published.blocks.map((block) => Number(block.number))).toEqual(expected.map((_, index) => index));
    expect(published.blocks.reduce((sum, block) => sum + block.transactionCount, 0)).toBe(24);
    // One consumer reads the topics in no particular order between them: the block topic can be
    // read to the end while the transaction topic is still behind.
    await eventually(() => expect(published.transactions).toHaveLength(24));
    // Every transaction message was on the topic before its block's message.
    for (const transaction of published.transactions) expect(published.blocks.some((block) => block.hash === transaction.blockHash)).toBe(true);
    const recipient = `0x${(1).toString(16).padStart(8, '0')}${(2).toString(16).padStart(32, '0')}`;
    const balance = await chain.session.client.getBalance({ address: recipient as Address });
    const received = () => published.balanceChanges.filter((change) => change.wallet === recipient).reduce((sum, change) => sum + BigInt(change.amount), 0n);
    await eventually(() => expect(received()).toBe(balance));
    const rows = await harness.prisma.indexedBlock.findMany({ where: { chainId }, orderBy: { number: 'asc' } });
    expect(rows.at(-1)!.hash).toBe(expected.at(-1));
    // Only the finality window (and its margin) is kept once blocks become final.
    expect(rows.length).toBeLessThanOrEqual(finalityDepth + 1 + 8 + 10);
  } finally {
    await stop();
    await published.stop();
  }
});

test('a reorg publishes a rollback of the orphaned blocks, then the new branch', async () => {
  const chainId = uniqueName('chain');
  const published = await collectPublished(harness.kafka, harness.topics, chainId);
  const stop = harness.runIndexer({ chainId, rpcUrl: chain.rpcUrl, finalityDepth });
  try {
    await mineBlocks(3, 2);
    const before = await canonicalHashes();
    await eventually(() => expect(published.blocks.at(-1)?.hash).toBe(before.at(-1)));
    await chain.session.client.request({ method: 'anvil_rollback' as never, params: [3] as never });
    chain.session.resetNonces();
    clock = await chain.session.latestTimestamp();
    await mineBlocks(4, 3, 1);
    const after = await canonicalHashes();
    await eventually(() => expect(published.blocks.at(-1)?.hash).toBe(after.at(-1)));
    expect(published.rollbacks).toHaveLength(1);
    const [rollback] = published.rollbacks;
    expect(rollback!.orphanedBlockHashes).toEqual(before.slice(-3));
    expect(rollback!.commonAncestorHash).toBe(after[before.length - 4]);
    expect(consumerView(published)).toEqual(after);
    const rows = await harness.prisma.indexedBlock.findMany({ where: { chainId }, orderBy: { number: 'asc' } });
    expect(rows.map((row) => row.hash)).toEqual(after.slice(-rows.length));
  } finally {
    await stop();
    await published.stop();
  }
});

test('a restart resumes after the checkpoint: no gap, no block published twice', async () => {
  const chainId = uniqueName('chain');
  const published = await collectPublished(harness.kafka, harness.topics, chainId);
  let stop = harness.runIndexer({ chainId, rpcUrl: chain.rpcUrl, finalityDepth });
  try {
    const first = await canonicalHashes();
    await eventually(() => expect(published.blocks.at(-1)?.hash).toBe(first.at(-1)));
    await stop();
    // A reorg of published blocks while the indexer is down is found from the checkpoint on restart.
    await chain.session.client.request({ method: 'anvil_rollback' as never, params: [2] as never });
    chain.session.resetNonces();
    clock = await chain.session.latestTimestamp();
    await mineBlocks(3, 5);
    stop = harness.runIndexer({ chainId, rpcUrl: chain.rpcUrl, finalityDepth });
    const final = await canonicalHashes();
    await eventually(() => expect(published.blocks.at(-1)?.hash).toBe(final.at(-1)));
    const hashes = published.blocks.map((block) => block.hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(published.rollbacks.map((rollback) => rollback.orphanedBlockHashes)).toEqual([first.slice(-2)]);
    expect(consumerView(published)).toEqual(final);
  } finally {
    await stop();
    await published.stop();
  }
});
