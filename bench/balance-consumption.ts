// Benchmark: how fast the positions service turns balance-change messages into current balances
// (Kafka -> exact NUMERIC(78,0) balances in PostgreSQL, one transaction per batch). Publishes
// synthetic BalanceChange messages (many wallets, several assets, blocks of many transactions) to
// topics of the benchmark's own, then runs the service's consumers on them, and in the same run a
// bare consumer that only decodes and discards the same messages (the Kafka limit). Prints
// messages/s of both and their ratio. Needs the infrastructure (bash scripts/up.sh).
//   pnpm bench:balance-consumption [--messages 100000] [--wallets 2000] [--per-block 200]
import { parseArgs } from 'node:util';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { createKafka, createProducer, ensureTopics, startConsumer, topics, type OutgoingMessage, type TopicSpec } from '@wallet-api/core/kafka';
import { createLogger } from '@wallet-api/core/logger';
import { Registry } from '@wallet-api/core/metrics';
import { AssetKind, type BalanceChange } from '@wallet-api/core/proto/events';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createPositionsConsumers, type PositionsTopics } from '../services/positions/src/consume/positions-consumers.js';
import { createPositionsMetrics } from '../services/positions/src/metrics/positions-metrics.js';
import { createProtocolDirectory } from '../services/positions/src/protocols/protocol-directory.js';
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
};

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');
const walletAddress = (index: number) => `0x${hex(index + 1, 40)}`;
const assets = ['', `0x${'a'.repeat(40)}`, `0x${'b'.repeat(40)}`, `0x${'c'.repeat(40)}`];

function syntheticChange(index: number): OutgoingMessage<BalanceChange> {
  const blockNumber = Math.floor(index / perBlock) + 1;
  const wallet = walletAddress(index % walletCount);
  const round = Math.floor(index / walletCount);
  const asset = assets[round % assets.length]!;
  const value: BalanceChange = {
    chainId,
    wallet,
    asset: { kind: asset === '' ? AssetKind.ASSET_KIND_NATIVE : AssetKind.ASSET_KIND_ERC20, address: asset, tokenId: '' },
    blockNumber: String(blockNumber),
    blockHash: `0x${hex(blockNumber, 64)}`,
    blockTimestamp: String(1_700_000_000 + blockNumber * 12),
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

async function positionsConsumer(): Promise<number> {
  const metrics = createPositionsMetrics(new Registry());
  // Never called: the benchmark's transaction topic stays empty.
  const referenceData = createGrpcClient(ReferenceDataClient, '127.0.0.1:1');
  const started = performance.now();
  const consumers = createPositionsConsumers({
    kafka,
    balances: createBalanceStore(prisma),
    snapshots: createSnapshotStore(prisma),
    protocols: createProtocolDirectory(referenceData),
    logger,
    metrics,
    groupId: `${chainId}.positions`,
    topics: benchTopics,
  });
  await consumers.start();
  try {
    const applied = async () => (await metrics.messages.get()).values.filter((entry) => entry.labels.topic === 'balance-changes').reduce((sum, entry) => sum + entry.value, 0);
    await untilCount(applied, messageCount);
    return (performance.now() - started) / 1000;
  } finally {
    await consumers.stop();
    referenceData.close();
  }
}

try {
  await ensureTopics(kafka, Object.values(benchTopics) as TopicSpec<unknown>[]);
  console.log(`publishing ${messageCount} balance changes (${walletCount} wallets, ${assets.length} assets, ${perBlock} per block) ...`);
  await publish();
  const bare = await bareConsumer();
  const positions = await positionsConsumer();
  const balances = await prisma.walletBalance.count({ where: { chainId } });
  const row = (target: string, seconds: number) => ({ target, seconds: Number(seconds.toFixed(2)), 'messages/s': Math.round(messageCount / seconds) });
  console.log(`\n${messageCount} balance changes into ${balances} current balances`);
  console.table([row('positions consumer (Kafka -> PostgreSQL balances)', positions), row('bare consumer (decode and discard)', bare)]);
  console.log(`positions / bare throughput ratio: ${(bare / positions).toFixed(3)}`);
} finally {
  await prisma.walletBalance.deleteMany({ where: { chainId } });
  await prisma.balanceEntry.deleteMany({ where: { chainId } });
  await prisma.$disconnect();
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: Object.values(benchTopics).map((spec) => spec.name) });
  await admin.disconnect();
}
