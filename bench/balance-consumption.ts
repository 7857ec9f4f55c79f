// Benchmark: how fast the positions service turns balance-change messages into current balances
// (Kafka -> exact NUMERIC(78,0) balances in PostgreSQL, one transaction per batch, each balance's
// opening read from the chain the first time it is seen). Publishes synthetic BalanceChange
// messages (many wallets, several assets, blocks of many transactions) to topics of the
// benchmark's own, then runs the service's consumers on them, and in the same run a bare consumer
// that only decodes and discards the same messages (the Kafka limit). Prints messages/s of both,
// their ratio and the openings read. Needs the infrastructure (bash scripts/up.sh).
// The openings are real reads: the messages name real blocks (by hash) of an anvil of the
// benchmark's own and three WETH9 contracts deployed on it, where the synthetic wallets hold
// nothing, so every balance opens at 0 after an eth_getBalance or balanceOf eth_call at its block.
//   pnpm bench:balance-consumption [--messages 100000] [--wallets 2000] [--per-block 200]
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { createKafka, createProducer, ensureTopics, startConsumer, topics, type OutgoingMessage, type TopicSpec } from '@wallet-api/core/kafka';
import { createLogger } from '@wallet-api/core/logger';
import { Registry } from '@wallet-api/core/metrics';
import { AssetKind, type BalanceChange } from '@wallet-api/core/proto/events';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createPublicClient, http, type Address, type Hash } from 'viem';
import { createChainSession, startAnvil } from '../devnet/src/chain/index.js';
import { npmArtifact } from '../devnet/src/compile/index.js';
import { createBalanceLedger } from '../services/positions/src/balances/balance-ledger.js';
import { createChainReader } from '../services/positions/src/chain/chain-reader.js';
import { createPositionsConsumers, type PositionsTopics } from '../services/positions/src/consume/positions-consumers.js';
import { createPositionsMetrics } from '../services/positions/src/metrics/positions-metrics.js';
import { createProtocolDirectory } from '../services/positions/src/protocols/protocol-directory.js';
import { createUnhurriedHoldings } from '../services/positions/test/unhurried-holdings.js';
import { createBalanceStore } from '../services/positions/src/store/balance-store.js';
import { createSnapshotStore } from '../services/positions/src/store/snapshot-store.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '100000' },
    wallets: { type: 'string', default: '2000' },
    'per-block': { type: 'string', default: '200' },
  },
});
const messageCount = Number(values.messages);
const walletCount = Number(values.wallets);
const perBlock = Number(values['per-block']);
const logger = createLogger('bench-balance-consumption', 'warn');
const kafka = createKafka({ brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','), clientId: 'bench-balance-consumption', logger });
const prisma = createPrisma(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/wallet_api_test');
const chainId = `bench-${Date.now()}`;
const suffix = chainId.replace('-', '_');
const rename = <T>(spec: TopicSpec<T>): TopicSpec<T> => ({ ...spec, name: `${spec.name}.${suffix}` });
const benchTopics: PositionsTopics = {
  balanceChanges: rename(topics.balanceChanges),
  chainBlocks: rename(topics.chainBlocks),
  chainRollbacks: rename(topics.chainRollbacks),
  walletTransactions: rename(topics.walletTransactions),
  poolEvents: rename(topics.poolEvents),
};

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');
const walletAddress = (index: number) => `0x${hex(index + 1, 40)}`;
const root = new URL('..', import.meta.url).pathname;

/** The benchmark's chain: three ERC-20s (WETH9) and one block per synthetic block of messages. */
async function startBenchChain() {
  const cachePath = await mkdtemp(join(root, '.data/bench-balance-consumption-'));
  const anvil = await startAnvil({ chainId: 31_337, cachePath, genesisTimestamp: 1_700_000_000 });
  const session = await createChainSession(anvil.rpcUrl);
  const deployer: Address = '0xbe0c000000000000000000000000000000000001';
  await session.setBalance(deployer, 10n ** 18n);
  const weth9 = npmArtifact('@uniswap/v2-periphery/build/WETH9.json');
  let clock = 1_700_000_000;
  const tokens: Address[] = [];
  for (let index = 0; index < 3; index++) tokens.push((await session.deploy(weth9, [], deployer, (clock += 12))).toLowerCase() as Address);
  const first = (await session.client.getBlockNumber()) + 1n;
  const count = Math.ceil(messageCount / perBlock);
  await session.client.mine({ blocks: count, interval: 12 });
  const blocks = await Promise.all(Array.from({ length: count }, (_, offset) => session.client.getBlock({ blockNumber: first + BigInt(offset) })));
  return {
    rpcUrl: anvil.rpcUrl,
    assets: ['', ...tokens],
    blocks: blocks.map((block) => ({ number: block.number, hash: block.hash as Hash, timestamp: block.timestamp })),
    async stop() {
      await anvil.stop();
      await rm(cachePath, { recursive: true, force: true });
    },
  };
}

const chain = await startBenchChain();
const assets = chain.assets;

function syntheticChange(index: number): OutgoingMessage<BalanceChange> {
  const block = chain.blocks[Math.floor(index / perBlock)]!;
  const wallet = walletAddress(index % walletCount);
  const round = Math.floor(index / walletCount);
  const asset = assets[round % assets.length]!;
  const value: BalanceChange = {
    chainId,
    wallet,
    asset: { kind: asset === '' ? AssetKind.ASSET_KIND_NATIVE : AssetKind.ASSET_KIND_ERC20, address: asset, tokenId: '' },
    blockNumber: String(block.number),
    blockHash: block.hash,
    blockTimestamp: String(block.timestamp),
    transactionHash: `0x${hex(index + 1, 64)}`,
    transactionIndex: index % perBlock,
    // Mostly credits with some debits, as real activity; a balance's first change is a credit.
    amount: round >= assets.length && index % 5 === 4 ? '-1' : '1000000000000000000',
  };
  return { key: `${chainId}:${wallet}`, value };
}

async function publish(): Promise<void> {
  const producer = await createProducer(kafka);
  try {
    for (let start = 0; start < messageCount; start += 5_000) {
      const batch = Array.from({ length: Math.min(5_000, messageCount - start) }, (_, offset) => syntheticChange(start + offset));
      await producer.send(benchTopics.balanceChanges, batch);
    }
  } finally {
    await producer.disconnect();
  }
}

async function untilCount(read: () => Promise<number>, target: number): Promise<void> {
  for (;;) {
    if ((await read()) >= target) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function bareConsumer(): Promise<number> {
  let seen = 0;
  const started = performance.now();
  const consumer = await startConsumer(kafka, {
    groupId: `${chainId}.bare`,
    topic: benchTopics.balanceChanges,
    logger,
    async handleBatch(messages) {
      seen += messages.length;
    },
  });
  try {
    await untilCount(async () => seen, messageCount);
    return (performance.now() - started) / 1000;
  } finally {
    await consumer.stop();
  }
}

const metrics = createPositionsMetrics(new Registry());

async function positionsConsumer(): Promise<number> {
  // Never called: the benchmark's transaction and pool topics stay empty.
  const referenceData = createGrpcClient(ReferenceDataClient, '127.0.0.1:1');
  // The service's chain reader on the benchmark's anvil, with the chain directory's client settings.
  const reader = createChainReader(
    createPublicClient({ transport: http(chain.rpcUrl, { timeout: 10_000, retryCount: 1, batch: { batchSize: 500 } }), cacheTime: 0 }),
  );
  const chains = { reader: async (id: string) => (id === chainId ? reader : undefined), solanaReader: async () => undefined };
  const changes = connectChangeVersions(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: `bench-${chainId}`, onError: () => undefined });
  const balances = createBalanceStore(prisma);
  const snapshots = createSnapshotStore(prisma);
  const protocols = createProtocolDirectory(referenceData);
  const started = performance.now();
  const consumers = createPositionsConsumers({
    kafka,
    balances: createBalanceLedger({ store: balances, chains, logger, metrics }),
    snapshots,
    protocols,
    // Never asked: the benchmark's transaction and pool topics stay empty.
    refreshes: createUnhurriedHoldings({ chains, protocols, snapshots, balances, versions: changes.versions, logger, metrics }),
    versions: changes.versions,
    logger,
    metrics,
    groupId: `${chainId}.positions`,
    topics: benchTopics,
  });
  await consumers.start();
  try {
    const applied = async () =>
      (await metrics.messages.get()).values.filter((entry) => entry.labels.topic === 'balance-changes').reduce((sum, entry) => sum + entry.value, 0);
    await untilCount(applied, messageCount);
    return (performance.now() - started) / 1000;
  } finally {
    await consumers.stop();
    referenceData.close();
    changes.close();
  }
}

try {
  await ensureTopics(kafka, Object.values(benchTopics) as TopicSpec<unknown>[]);
  console.log(`publishing ${messageCount} balance changes (${walletCount} wallets, ${assets.length} assets, ${perBlock} per block) ...`);
  await publish();
  const bare = await bareConsumer();
  const positions = await positionsConsumer();
  const balances = await prisma.walletBalance.count({ where: { chainId } });
  const openings = (await metrics.openingReads.get()).values.filter((entry) => entry.labels.outcome === 'read').reduce((sum, entry) => sum + entry.value, 0);
  const row = (target: string, seconds: number) => ({ target, seconds: Number(seconds.toFixed(2)), 'messages/s': Math.round(messageCount / seconds) });
  console.log(`\n${messageCount} balance changes into ${balances} current balances (${openings} openings read from the chain)`);
  console.table([row('positions consumer (Kafka -> PostgreSQL balances)', positions), row('bare consumer (decode and discard)', bare)]);
  console.log(`positions / bare throughput ratio: ${(bare / positions).toFixed(3)}`);
} finally {
  await prisma.walletBalance.deleteMany({ where: { chainId } });
  await prisma.balanceEntry.deleteMany({ where: { chainId } });
  await prisma.balanceOpening.deleteMany({ where: { chainId } });
  await chain.stop();
  await prisma.$disconnect();
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: Object.values(benchTopics).map((spec) => spec.name) });
  await admin.disconnect();
}
