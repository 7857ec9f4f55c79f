// Benchmark: backfill of a devnet world by the indexer (fetch, decode, publish to Kafka, checkpoint
// in PostgreSQL), against a bare viem loop reading the same blocks, receipts and traces with the
// same concurrency in the same run: the RPC node's limit. Prints blocks/s, transactions/s, ratio.
// The world (default 10,000 wallets) comes from the devnet cache, built on first use (~15 min).
// Needs the infrastructure (bash scripts/up.sh).
// --blocks N measures the world's last N blocks only: anvil re-executes every transaction of a
// traced block, so the whole 10,000-wallet chain takes hours on a small machine.
//   pnpm bench:backfill [--wallets 10000] [--chain ethereum] [--concurrency 4] [--blocks N]
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPrisma } from '@wallet-api/core/db';
import { createKafka, createProducer, ensureTopics, type TopicSpec } from '@wallet-api/core/kafka';
import { createLogger } from '@wallet-api/core/logger';
import { Registry } from '@wallet-api/core/metrics';
import { createPublicClient, http, numberToHex } from 'viem';
import { devnetChains, ensureWorld } from '../devnet/src/cache/index.js';
import { startAnvil } from '../devnet/src/chain/index.js';
import { worldModules } from '../devnet/src/protocols/index.js';
import { decodeBlock } from '../services/indexer/src/decode/index.js';
import { createChainIndexer } from '../services/indexer/src/pipeline/chain-indexer.js';
import { createIndexerMetrics } from '../services/indexer/src/pipeline/indexer-metrics.js';
import { createBlockPublisher } from '../services/indexer/src/publish/block-publisher.js';
import { pipelineTopics } from '../services/indexer/test/pipeline-topics.js';
import { createCheckpointStore } from '../services/indexer/src/store/checkpoint-store.js';

const { values } = parseArgs({
  options: {
    wallets: { type: 'string', default: '10000' },
    chain: { type: 'string', default: 'ethereum' },
    concurrency: { type: 'string', default: '4' },
    blocks: { type: 'string' },
  },
});
const concurrency = Number(values.concurrency);
const root = new URL('..', import.meta.url).pathname;
const logger = createLogger('bench-backfill', 'warn');

const world = await ensureWorld({
  seed: 'bench',
  walletCount: Number(values.wallets),
  days: 450,
  endTimestamp: Date.parse('2026-11-01T00:00:00Z') / 1000,
  actionsPerWallet: 4,
  reorgCount: 3,
  chains: devnetChains,
  modules: worldModules,
  dataDir: join(root, '.data/devnet'),
  logger,
});
const chainWorld = world.manifest.chains.find((chain) => chain.id === values.chain);
if (!chainWorld) throw new Error(`the world has no chain ${values.chain}`);
const anvilDir = await mkdtemp(join(root, '.data/bench-backfill-'));
const anvil = await startAnvil({ chainId: chainWorld.chainId, cachePath: anvilDir, loadState: world.stateFiles[chainWorld.id]!, readyTimeoutMs: 600_000 });
// Tracing a block of hundreds of transactions re-executes it on anvil: seconds per request.
const client = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0, timeout: 600_000 }), cacheTime: 0 });
const endBlock = BigInt(chainWorld.endBlock);
const firstBlock = values.blocks === undefined ? 0n : endBlock + 1n - BigInt(values.blocks);
if (firstBlock < 0n || firstBlock > endBlock) throw new Error(`--blocks must be between 1 and ${endBlock + 1n}`);

/** Runs `work` for firstBlock..endBlock with at most `concurrency` blocks in flight. */
async function forEachBlock(work: (number: bigint) => Promise<void>): Promise<void> {
  let next = firstBlock;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next <= endBlock) await work(next++);
    }),
  );
}

async function bareLoop(): Promise<{ seconds: number; transactions: number }> {
  let transactions = 0;
  const started = performance.now();
  await forEachBlock(async (number) => {
    const [block] = await Promise.all([
      client.getBlock({ blockNumber: number, includeTransactions: true }),
      client.request({ method: 'eth_getBlockReceipts' as never, params: [numberToHex(number)] as never }),
      client.request({ method: 'debug_traceBlockByNumber' as never, params: [numberToHex(number), { tracer: 'callTracer' }] as never }),
    ]);
    transactions += block.transactions.length;
  });
  return { seconds: (performance.now() - started) / 1000, transactions };
}

async function indexer(): Promise<{ seconds: number; transactions: number }> {
  const kafka = createKafka({ brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','), clientId: 'bench-backfill', logger });
  const producer = await createProducer(kafka);
  const prisma = createPrisma(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/wallet_api_test');
  const chainId = `bench-${Date.now()}`;
  // Topics of the benchmark's own: a running writer must never see a chain it does not serve.
  const topics = pipelineTopics(chainId.replace('-', '_'));
  await ensureTopics(kafka, Object.values(topics) as TopicSpec<unknown>[]);
  const checkpoints = createCheckpointStore(prisma);
  const metrics = createIndexerMetrics(new Registry());
  const controller = new AbortController();
  const started = performance.now();
  const running = createChainIndexer({
    chainId,
    client,
    startBlock: firstBlock,
    finalityDepth: 12,
    pollIntervalMs: 50,
    concurrency,
    publishBatchSize: 50,
    checkpoints,
    publisher: createBlockPublisher(producer, chainId, topics),
    decode: decodeBlock,
    logger,
    metrics,
  }).run(controller.signal);
  try {
    for (;;) {
      const [tip] = await checkpoints.recent(chainId, 1);
      if (tip && tip.number >= endBlock) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const transactions = (await metrics.transactions.get()).values.reduce((sum, value) => sum + value.value, 0);
    return { seconds, transactions };
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
  const blocks = Number(endBlock - firstBlock) + 1;
  const row = (title: string, run: { seconds: number; transactions: number }) => ({
    target: title,
    seconds: Number(run.seconds.toFixed(2)),
    'blocks/s': Number((blocks / run.seconds).toFixed(2)),
    'tx/s': Math.round(run.transactions / run.seconds),
    transactions: run.transactions,
  });
  console.log(`\nbackfill of ${values.chain} in the ${values.wallets}-wallet world: blocks ${firstBlock}..${endBlock} (${blocks}), concurrency ${concurrency}`);
  console.table([row('indexer (fetch, decode, Kafka, checkpoint)', indexed), row('bare viem loop (fetch only)', bare)]);
  console.log(`indexer / bare throughput ratio: ${(bare.seconds / indexed.seconds).toFixed(3)}`);
} finally {
  await anvil.stop();
  await rm(anvilDir, { recursive: true, force: true });
}
