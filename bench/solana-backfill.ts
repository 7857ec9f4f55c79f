// Benchmark: backfill of a Solana devnet world by the Solana indexer (getBlocks + getBlock through
// @solana/kit, decode, publish to Kafka, checkpoint in PostgreSQL), against a bare @solana/kit
// getBlock loop over the same slots with the same concurrency in the same run: what the RPC
// server itself allows. Prints slots/s, transactions/s and the ratio.
// The world is built in process on the LiteSVM ledger (the same builder the devnet serves) and
// served by the devnet's JSON-RPC server on a port of its own. Needs the infrastructure
// (bash scripts/up.sh).
//   pnpm bench:solana-backfill [--wallets 200] [--concurrency 8]
import { parseArgs } from 'node:util';
import { createSolanaRpc } from '@solana/kit';
import { createPrisma } from '@wallet-api/core/db';
import { createKafka, createProducer, ensureTopics, type TopicSpec } from '@wallet-api/core/kafka';
import { createLogger } from '@wallet-api/core/logger';
import { Registry } from '@wallet-api/core/metrics';
import { freePort } from '@wallet-api/core/testing';
import { createSolanaLedger, startSolanaRpcServer } from '../devnet/src/solana/index.js';
import { buildSolanaWorld } from '../devnet/src/solana/world.js';
import { createIndexerMetrics } from '../services/indexer/src/pipeline/indexer-metrics.js';
import { createBlockPublisher } from '../services/indexer/src/publish/block-publisher.js';
import { createSolanaChainIndexer } from '../services/indexer/src/solana/solana-chain-indexer.js';
import { createCheckpointStore } from '../services/indexer/src/store/checkpoint-store.js';
import { pipelineTopics } from '../services/indexer/test/pipeline-topics.js';

const { values } = parseArgs({
  options: {
    wallets: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' },
  },
});
const concurrency = Number(values.concurrency);
const logger = createLogger('bench-solana-backfill', 'warn');

const ledger = createSolanaLedger();
const builtAt = performance.now();
const world = await buildSolanaWorld(ledger, {
  seed: 'bench',
  walletCount: Number(values.wallets),
  days: 450,
  endTimestamp: Date.parse('2026-11-01T00:00:00Z') / 1000,
});
console.log(
  `world of ${values.wallets} wallets: ${world.transactions.sent} transactions up to slot ${world.endSlot}, built in ${((performance.now() - builtAt) / 1000).toFixed(1)} s`,
);
// No slot timer: the chain stands still at the world's end while both readers walk it.
const server = await startSolanaRpcServer({ ledger, port: await freePort(), slotIntervalMs: 0 });
const rpc = createSolanaRpc(server.url);
const endSlot = BigInt(world.endSlot);

interface Run {
  seconds: number;
  slots: number;
  transactions: number;
}

async function bareLoop(): Promise<Run> {
  const started = performance.now();
  const slots = await rpc.getBlocks(0n, endSlot, { commitment: 'finalized' }).send();
  let next = 0;
  let transactions = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < slots.length; index = next++) {
        const block = await rpc
          .getBlock(slots[index]!, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0, transactionDetails: 'full', rewards: false })
          .send();
        transactions += block?.transactions.length ?? 0;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, slots: slots.length, transactions };
}

async function indexer(): Promise<Run> {
  const kafka = createKafka({ brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','), clientId: 'bench-solana-backfill', logger });
  const producer = await createProducer(kafka);
  const prisma = createPrisma(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/wallet_api_test');
  const chainId = `bench-solana-${Date.now()}`;
  // Topics of the benchmark's own: a running writer must never see a chain it does not serve.
  const topics = pipelineTopics(chainId.replace(/-/g, '_'));
  await ensureTopics(kafka, Object.values(topics) as TopicSpec<unknown>[]);
  const checkpoints = createCheckpointStore(prisma);
  const metrics = createIndexerMetrics(new Registry());
  const controller = new AbortController();
  const started = performance.now();
  const running = createSolanaChainIndexer({
    chainId,
    rpc,
    startSlot: 0n,
    pollIntervalMs: 50,
    concurrency,
    publishBatchSize: 50,
    checkpoints,
    publisher: createBlockPublisher(producer, chainId, topics),
    logger,
    metrics,
  }).run(controller.signal);
  try {
    for (;;) {
      const [tip] = await checkpoints.recent(chainId, 1);
      if (tip && tip.number >= endSlot) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const total = async (counter: typeof metrics.blocks) => (await counter.get()).values.reduce((sum, value) => sum + value.value, 0);
    return { seconds, slots: await total(metrics.blocks), transactions: await total(metrics.transactions) };
  } finally {
    controller.abort();
    await running;
    await prisma.indexedBlock.deleteMany({ where: { chainId } });
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: Object.values(topics).map((spec) => spec.name) });
    await admin.disconnect();
    await prisma.$disconnect();
  }
}

try {
  const bare = await bareLoop();
  const indexed = await indexer();
  const row = (title: string, run: Run) => ({
    target: title,
    seconds: Number(run.seconds.toFixed(2)),
    slots: run.slots,
    'slots/s': Number((run.slots / run.seconds).toFixed(1)),
    'tx/s': Math.round(run.transactions / run.seconds),
    transactions: run.transactions,
  });
  console.log(`\nbackfill of the ${values.wallets}-wallet Solana world: slots 0..${endSlot}, concurrency ${concurrency}`);
  console.table([row('indexer (getBlocks, getBlock, decode, Kafka, checkpoint)', indexed), row('bare @solana/kit getBlock loop', bare)]);
  console.log(`indexer / bare throughput ratio: ${(bare.seconds / indexed.seconds).toFixed(3)}`);
} finally {
  await server.close();
}
