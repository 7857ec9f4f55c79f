import type { BalanceChange, PoolEvent, WalletTransaction } from '@wallet-api/core/proto/events';
import type { Logger } from '@wallet-api/core/logger';
import type { PublicClient } from 'viem';
import type { BlockBundle } from '../fetch/block-bundle.js';
import { createBlockSource } from '../fetch/block-source.js';
import { createPoolEventSource } from '../fetch/pool-event-source.js';
import type { BlockPublisher, DecodedBlock } from '../publish/block-publisher.js';
import type { CheckpointBlock, CheckpointStore } from '../store/checkpoint-store.js';
import { runWithRestarts } from '../sync/run-with-restarts.js';
import { createBlockFollower, ReorgTooDeepError, type FollowedBlock, type FollowerEvent } from '../sync/block-follower.js';
import type { IndexerMetrics } from './indexer-metrics.js';

export interface ChainIndexerOptions {
  chainId: string;
  client: Pick<PublicClient, 'getBlock' | 'getBlockNumber' | 'readContract' | 'request'>;
  startBlock: bigint;
  finalityDepth: number;
  pollIntervalMs: number;
  /** Blocks whose bodies, receipts and traces are fetched at the same time. */
  concurrency: number;
  /** Most blocks published to Kafka and checkpointed together. */
  publishBatchSize: number;
  checkpoints: CheckpointStore;
  publisher: BlockPublisher;
  decode: (bundle: BlockBundle) => { transactions: WalletTransaction[]; balanceChanges: BalanceChange[] };
  logger: Logger;
  metrics: IndexerMetrics;
  /** Interval of the progress log line (block, blocks/s, lag). */
  progressIntervalMs?: number;
}

export interface ChainIndexer {
  /** Indexes until `signal` aborts; restarts from the checkpoint after any failure. */
  run(signal: AbortSignal): Promise<void>;
}

/** Checkpoint rows kept beyond the finality depth, matching the follower's reorg window. */
const checkpointMargin = 8;

interface FetchedBlock {
  bundle: BlockBundle;
  poolEvents: PoolEvent[];
}

interface InFlight {
  header: FollowedBlock;
  fetched: Promise<FetchedBlock | undefined>;
  settled: boolean;
}

export function createChainIndexer(options: ChainIndexerOptions): ChainIndexer {
  const { chainId, checkpoints, publisher, metrics } = options;
  const logger = options.logger.child({ chain: chainId });
  const windowSize = options.finalityDepth + 1 + checkpointMargin;
  const progressIntervalMs = options.progressIntervalMs ?? 10_000;
  const labels = { chain: chainId };

  function transient(error: unknown): void {
    metrics.rpcRetries.inc(labels);
    logger.warn({ err: error }, 'transient RPC failure, retrying');
  }

  // Outlives restarts: what a pool answered about itself stays true.
  const pools = createPoolEventSource({ client: options.client, onTransientError: transient });

  async function runOnce(signal: AbortSignal): Promise<void> {
    const recent = await checkpoints.recent(chainId, windowSize);
    let sequence = await checkpoints.lastSequence(chainId);
    // Microseconds of wall time keep sequences increasing across restarts without a stored counter;
    // the +1 covers a clock that stands still or steps back.
    const nextSequence = (): bigint => {
      const now = BigInt(Date.now()) * 1000n;
      sequence = now > sequence ? now : sequence + 1n;
      return sequence;
    };
    let tipNumber = recent.at(-1)?.number ?? options.startBlock - 1n;
    logger.info({ resumeAfter: recent.length > 0 ? tipNumber.toString() : null }, 'indexing chain');
    const source = createBlockSource({ client: options.client, chainId, onTransientError: (error) => transient(error) });
    const follower = createBlockFollower({
      client: options.client,
      chainId,
      startBlock: options.startBlock,
      finalityDepth: options.finalityDepth,
      pollIntervalMs: options.pollIntervalMs,
      fromCheckpoint: recent,
      onTransientError: (error) => transient(error),
    });
    const queue: InFlight[] = [];
    let finalized: bigint | undefined;

    /** Publishes the settled blocks at the front of the queue (all of them when `all`). */
    async function flush(all: boolean): Promise<void> {
      while (queue.length > 0 && (all || queue[0]!.settled)) {
        const batch: InFlight[] = [];
        while (queue.length > 0 && batch.length < options.publishBatchSize && (queue[0]!.settled || (all && batch.length === 0))) batch.push(queue.shift()!);
        const decoded: (DecodedBlock & { sequence: bigint })[] = [];
        for (const entry of batch) {
          const fetched = await entry.fetched;
          if (!fetched) {
            // The follower saw this block, but the node now has another one at its height: the
            // follower reports the reorg shortly, and a block never published needs no rollback.
            logger.warn({ number: entry.header.number.toString(), hash: entry.header.hash }, 'block replaced before it was fetched; waiting for the reorg');
            continue;
          }
          const { transactions, balanceChanges } = options.decode(fetched.bundle);
          decoded.push({ ...entry.header, transactions, balanceChanges, poolEvents: fetched.poolEvents, sequence: nextSequence() });
        }
        if (decoded.length === 0) continue;
        await publisher.publishBlocks(decoded);
        const committed: CheckpointBlock[] = decoded.map(({ number, hash, parentHash, timestamp, sequence: blockSequence }) => ({
          number,
          hash,
          parentHash,
          timestamp,
          sequence: blockSequence,
        }));
        await checkpoints.commit(chainId, committed);
        if (finalized !== undefined) await checkpoints.pruneBelow(chainId, finalized - BigInt(checkpointMargin));
        tipNumber = committed.at(-1)!.number;
        metrics.blocks.inc(labels, decoded.length);
        metrics.transactions.inc(
          labels,
          decoded.reduce((sum, block) => sum + block.transactions.length, 0),
        );
        metrics.height.set(labels, Number(tipNumber));
      }
    }

    async function handle(event: FollowerEvent): Promise<void> {
      switch (event.type) {
        case 'block': {
          while (queue.length >= options.concurrency) {
            await queue[0]!.fetched.catch(() => undefined);
            await flush(false);
          }
          const fetched = source
            .fetch(event.block.number, event.block.hash)
            .then(async (bundle) => bundle && { bundle, poolEvents: await pools.eventsOf(bundle) });
          const entry: InFlight = { header: event.block, fetched, settled: false };
          const settle = () => {
            entry.settled = true;
          };
          fetched.then(settle, settle);
          queue.push(entry);
          return;
        }
        case 'reorg': {
          await flush(true);
          const orphaned = event.orphaned.map(({ number, hash }) => ({ number, hash }));
          await publisher.publishRollback({ commonAncestor: event.commonAncestor, orphaned, sequence: nextSequence() });
          await checkpoints.rollbackAbove(chainId, event.commonAncestor.number);
          tipNumber = event.commonAncestor.number;
          metrics.reorgs.inc(labels);
          metrics.height.set(labels, Number(tipNumber));
          logger.info({ commonAncestor: event.commonAncestor.number.toString(), depth: orphaned.length }, 'reorg: rollback published');
          return;
        }
        case 'finalized':
          finalized = event.number;
          return;
        default: {
          const unexpected: never = event;
          throw new Error(`unknown follower event ${JSON.stringify(unexpected)}`);
        }
      }
    }

    const progress = startProgressLog();
    try {
      const events = follower.events(signal);
      let next = events.next();
      for (;;) {
        const head = queue[0];
        const step = head
          ? await Promise.race([
              next.then((result) => ({ kind: 'event' as const, result })),
              head.fetched.then(
                () => ({ kind: 'fetched' as const }),
                () => ({ kind: 'fetched' as const }),
              ),
            ])
          : { kind: 'event' as const, result: await next };
        if (step.kind === 'fetched') {
          await flush(false);
          continue;
        }
        if (step.result.done) break;
        await handle(step.result.value);
        next = events.next();
      }
      await flush(true);
    } finally {
      clearInterval(progress);
    }

    function startProgressLog(): NodeJS.Timeout {
      let last = { at: Date.now(), number: tipNumber };
      const timer = setInterval(() => {
        void options.client.getBlockNumber({ cacheTime: 0 }).then(
          (head) => {
            const now = Date.now();
            const number = tipNumber;
            const blocksPerSecond = (Number(number - last.number) * 1000) / Math.max(1, now - last.at);
            last = { at: now, number };
            const lag = Number(head - number);
            metrics.lag.set(labels, lag);
            metrics.head.set(labels, Number(head));
            logger.info({ block: number.toString(), head: head.toString(), lag, blocksPerSecond: Number(blocksPerSecond.toFixed(1)) }, 'indexing progress');
          },
          (error: unknown) => logger.warn({ err: error }, 'cannot read the chain head for the progress log'),
        );
      }, progressIntervalMs);
      timer.unref();
      return timer;
    }
  }

  return {
    run: (signal) =>
      runWithRestarts(
        signal,
        {
          logger,
          message: 'chain indexer failed; restarting from the checkpoint',
          // Deeper than the finality depth means the configuration is wrong for this chain;
          // retrying would publish nothing new, so it is logged at error level every time.
          isFatal: (error) => error instanceof ReorgTooDeepError,
          onRestart: () => metrics.restarts.inc(labels),
        },
        runOnce,
      ),
  };
}
