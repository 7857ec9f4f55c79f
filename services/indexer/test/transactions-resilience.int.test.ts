import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from '@wallet-api/core/clickhouse';
import { createPrisma } from '@wallet-api/core/db';
import { processRegistry } from '@wallet-api/core/metrics';
import { consumerGroupCaughtUp, setupKafka, testConfig } from '@wallet-api/core/testing';
import { parseEther, type Address, type Hash } from 'viem';
import { readManifest, type ChainWorld } from '../../../devnet/src/manifest/index.js';
import { collectRollbacks } from './collect-rollbacks.js';
import { eventually, startOwnChain, type OwnChain } from './setup-indexing.js';
import { startPipeline, type Pipeline } from './setup-pipeline.js';

// The transactions API when the chain misbehaves: a reorg, an indexer killed with SIGKILL in the
// middle of a backfill, and a client paging through a long history while new blocks arrive.
// Each case runs its own anvil (as chain `ethereum`, so reference data knows it) and its own
// pipeline (Kafka topics and ClickHouse database).
const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;
const fixture = new URL('./fixtures/index-chain.ts', import.meta.url).pathname;
const chainId = 'ethereum';

let ethereum: ChainWorld;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ethereum = (await readManifest()).chains.find((chain) => chain.id === chainId)!;
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function ownPipeline(): Promise<Pipeline> {
  const pipeline = await startPipeline();
  cleanups.push(() => pipeline.close());
  await pipeline.resetCheckpoints([chainId]);
  return pipeline;
}

async function ownChain(options: Parameters<typeof startOwnChain>[0]): Promise<OwnChain> {
  const chain = await startOwnChain(options);
  cleanups.push(() => chain.stop());
  return chain;
}

async function storedCount(pipeline: Pipeline): Promise<number> {
  const [row] = await pipeline.database.clickhouse.query<{ count: string }>(
    sql`SELECT uniqExact(block_hash, transaction_index) AS count FROM wallet_transactions WHERE chain_id = ${chainId}`,
  );
  return Number(row!.count);
}

async function chainTransactionCount(chain: OwnChain, upTo: bigint): Promise<number> {
  let count = 0;
  for (let number = 0n; number <= upTo; number++) count += (await chain.session.client.getBlock({ blockNumber: number })).transactions.length;
  return count;
}

/**
 * Answers of the transactions route its cache gave so far, in this process, by outcome; `page`
 * counts the indexer's pages behind them instead, kept apart from prices.
 */
async function cacheCount(outcome: string, route = '/v1/wallets/{address}/transactions/'): Promise<number> {
  const values = (await processRegistry.getSingleMetric('wallet_api_gateway_response_cache_total')!.get()).values;
  return values.find((value) => value.labels.route === route && value.labels.outcome === outcome)?.value ?? 0;
}
const pageRoute = 'transactions page';

const hashesOf = (items: any[]) => items.map((item) => item.attributes.hash as string);

test('after a reorg the orphaned transactions are gone from the API, the new branch is there, and the rollback reached Kafka', async () => {
  const chain = await ownChain({ chainId: ethereum.chainId, loadState: worldState });
  const pipeline = await ownPipeline();
  const rollbacks = await collectRollbacks(pipeline, chainId);
  cleanups.push(() => rollbacks.stop());
  // Only the blocks mined here matter: indexing starts a finality depth below the world's head.
  pipeline.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12, startBlock: (await chain.session.client.getBlockNumber()) - 12n });
  const wallet = ethereum.wallets.find((candidate) => candidate.kind === 'eoa')!.address.toLowerCase() as Address;
  const recipient = (tag: number) => `0x${tag.toString(16).padStart(40, '0')}` as Address;
  const history = (address: string) => pipeline.getAll(`/v1/wallets/${address}/transactions/?filter[trash]=no_filter`);

  // A chain loaded from a state file refuses block times before the moment it was loaded.
  let clock = Math.max(await chain.session.latestTimestamp(), Math.floor(Date.now() / 1000));
  const orphaned: Hash[] = [];
  for (const tag of [0xa1, 0xa2]) {
    orphaned.push(await chain.session.send({ from: wallet, to: recipient(tag), value: parseEther('0.01'), gas: 21_000n }));
    await chain.session.mine((clock += 12));
  }
  const head = await chain.session.client.getBlockNumber();
  const orphanedBlocks = [head - 1n, head];
  const orphanedBlockHashes = await Promise.all(orphanedBlocks.map(async (blockNumber) => (await chain.session.client.getBlock({ blockNumber })).hash));
  await eventually(async () => expect(hashesOf(await history(wallet)).slice(0, 2)).toEqual([...orphaned].reverse()), 180_000);

  await chain.session.client.request({ method: 'anvil_rollback' as never, params: [2] as never });
  chain.session.resetNonces();
  const replacement = await chain.session.send({ from: wallet, to: recipient(0xb1), value: parseEther('0.02'), gas: 21_000n });
  for (let block = 0; block < 3; block++) await chain.session.mine((clock += 12));

  await eventually(async () => {
    const hashes = hashesOf(await history(wallet));
    expect(hashes[0]).toBe(replacement);
    for (const hash of orphaned) expect(hashes).not.toContain(hash);
  }, 60_000);
  for (const tag of [0xa1, 0xa2]) expect(await history(recipient(tag))).toEqual([]);
  expect(hashesOf(await history(recipient(0xb1)))).toEqual([replacement]);
  await eventually(() => expect(rollbacks.received.flatMap((rollback) => rollback.orphanedBlockHashes)).toEqual(orphanedBlockHashes));
}, 300_000);

test('a page answered from the cache is not served again once the writer has stored a new transaction of the wallet', async () => {
  const chain = await ownChain({ chainId: ethereum.chainId, loadState: worldState });
  const pipeline = await ownPipeline();
  pipeline.index({ chainId, rpcUrl: chain.rpcUrl, finalityDepth: 12 });
  const wallet = ethereum.wallets.find((candidate) => candidate.kind === 'eoa')!.address.toLowerCase() as Address;
  const page = `/v1/wallets/${wallet}/transactions/?page[size]=5&filter[trash]=no_filter`;
  const head = await chain.session.client.getBlockNumber();
  const prisma = createPrisma(testConfig().DATABASE_URL);
  cleanups.push(() => prisma.$disconnect());
  const checkpointed = async (number: bigint, hash?: Hash) => {
    const checkpoint = await prisma.indexedBlock.findUnique({ where: { chainId_number: { chainId, number } } });
    expect(checkpoint).not.toBeNull();
    if (hash) expect(checkpoint!.hash).toBe(hash);
  };
  const kafka = setupKafka('transactions-cache-test');
  const written = () => consumerGroupCaughtUp(kafka, `${pipeline.suffix}.transactions`, pipeline.topics.walletTransactions.name);
  await eventually(() => checkpointed(head), 180_000);
  await eventually(written, 120_000);
  // Once everything is stored and prices are folded, the same page twice: the second from the cache.
  let before: any;
  await eventually(async () => {
    const hits = await cacheCount('hit');
    before = (await pipeline.get(page)).body;
    expect((await pipeline.get(page)).body).toEqual(before);
    expect(await cacheCount('hit')).toBeGreaterThan(hits);
  }, 120_000);

  // A price move recomputes the answer from the page already read: prices and market data are
  // asked again, the wallet's transactions are not.
  const [answersComputed, pagesRead, pagesReused] = [await cacheCount('miss'), await cacheCount('miss', pageRoute), await cacheCount('hit', pageRoute)];
  await pipeline.versions.pricesChanged();
  expect((await pipeline.get(page)).body.data.map((item: any) => item.id)).toEqual(before.data.map((item: any) => item.id));
  expect([await cacheCount('miss'), await cacheCount('miss', pageRoute), await cacheCount('hit', pageRoute)]).toEqual([
    answersComputed + 1,
    pagesRead,
    pagesReused + 1,
  ]);

  const clock = Math.max(await chain.session.latestTimestamp(), Math.floor(Date.now() / 1000));
  const sent = await chain.session.send({ from: wallet, to: '0x6361636865000000000000000000000000000002', value: parseEther('0.01'), gas: 21_000n });
  const mined = await chain.session.mine(clock + 12);
  await eventually(() => checkpointed(mined.number, mined.hash), 120_000);
  await eventually(written, 120_000);

  // One request, no retries; the page behind it read again.
  const pagesBefore = await cacheCount('miss', pageRoute);
  const after = (await pipeline.get(page)).body;
  expect(await cacheCount('miss', pageRoute)).toBe(pagesBefore + 1);
  expect(after.data[0].attributes.hash).toBe(sent);
  expect(after.data.slice(1).map((item: any) => item.id)).toEqual(before.data.slice(0, 4).map((item: any) => item.id));
}, 300_000);

test('an indexer killed with SIGKILL during backfill and restarted leaves each transaction stored exactly once', async () => {
  const chain = await ownChain({ chainId: ethereum.chainId, loadState: worldState });
  const pipeline = await ownPipeline();
  const prisma = createPrisma(testConfig().DATABASE_URL);
  cleanups.push(() => prisma.$disconnect());
  const start = (): ChildProcess => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      env: {
        ...process.env,
        CHAIN_ID: chainId,
        RPC_URL: chain.rpcUrl,
        TOPIC_SUFFIX: pipeline.suffix,
        DATABASE_URL: testConfig().DATABASE_URL,
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    });
    return child;
  };
  const tip = async () => (await prisma.indexedBlock.findFirst({ where: { chainId }, orderBy: { number: 'desc' } }))?.number ?? -1n;
  const end = BigInt(ethereum.endBlock);

  const first = start();
  await eventually(async () => expect(await tip()).toBeGreaterThanOrEqual(end / 3n), 60_000);
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  const killedAt = await tip();
  expect(killedAt).toBeLessThan(end);

  start();
  await eventually(async () => expect(await tip()).toBe(end), 120_000);
  const expected = await chainTransactionCount(chain, end);
  await eventually(async () => expect(await storedCount(pipeline)).toBe(expected), 120_000);
  // Redelivered messages may add physical duplicates (the writer does not read before it writes);
  // the reading readers take, collapsed on the table's key, holds each (transaction, wallet) once.
  const [transactions] = await pipeline.database.clickhouse.query<{ rows: string; distinct: string }>(
    sql`SELECT count() AS rows, uniqExact(block_hash, transaction_index, address) AS distinct FROM wallet_transactions FINAL WHERE chain_id = ${chainId}`,
  );
  expect(Number(transactions!.rows)).toBe(Number(transactions!.distinct));
  // Balance changes come on their own topic: the writer may still be reading it when the transactions are all in.
  const changes = await eventually(async () => {
    const [counted] = await pipeline.database.clickhouse.query<{ rows: string; distinct: string }>(
      sql`SELECT count() AS rows, uniqExact(block_hash, transaction_index, address, asset_kind, asset_address, token_id) AS distinct FROM balance_changes FINAL WHERE chain_id = ${chainId}`,
    );
    expect(Number(counted!.rows)).toBeGreaterThan(expected);
    return counted!;
  }, 60_000);
  expect(Number(changes.rows)).toBe(Number(changes.distinct));
}, 300_000);

test('paging through a 1,000-transaction wallet while blocks arrive returns every transaction once', async () => {
  const chain = await ownChain({ chainId: ethereum.chainId });
  const pipeline = await ownPipeline();
  pipeline.index({ chainId, rpcUrl: chain.rpcUrl });
  const wallet = '0x00000000000000000000000000000000c0ffee01' as Address;
  await chain.session.setBalance(wallet, parseEther('100'));
  let clock = 1_700_000_000;
  let recipientTag = 0;
  const payMany = async (count: number): Promise<Hash[]> => {
    const hashes: Hash[] = [];
    for (let index = 0; index < count; index++) {
      const to = `0x${(++recipientTag).toString(16).padStart(40, '0')}` as Address;
      hashes.push(await chain.session.send({ from: wallet, to, value: 1n, gas: 21_000n }));
    }
    await chain.session.mine((clock += 12));
    return hashes;
  };
  const sent: Hash[] = [];
  for (let block = 0; block < 10; block++) sent.push(...(await payMany(100)));
  const path = `/v1/wallets/${wallet}/transactions/?page[size]=100`;
  await eventually(async () => expect(await storedCount(pipeline)).toBe(1_000), 120_000);

  const seen: string[] = [];
  let next: string | undefined = path;
  let pages = 0;
  while (next) {
    const { status, body } = await pipeline.get(next);
    expect(status).toBe(200);
    seen.push(...hashesOf(body.data));
    pages++;
    // A new block of the wallet's transactions lands between every two pages.
    await payMany(3);
    next = body.links.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : undefined;
  }
  expect(pages).toBe(10);
  expect(seen).toHaveLength(1_000);
  expect(new Set(seen)).toEqual(new Set(sent));
  // Oldest last: the walk ends with the first block's transactions, in reverse index order.
  expect(seen.slice(-100)).toEqual([...sent.slice(0, 100)].reverse());
}, 300_000);
