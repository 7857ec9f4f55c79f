import { mapConcurrently } from '@wallet-api/core/async';
import type { Logger } from '@wallet-api/core/logger';
import type { Rpc, SolanaRpcApi } from '@solana/kit';
import type { Hash } from 'viem';
import type { DecodedBlock as DecodedBlockContent } from '../decode/decode-block.js';
import type { IndexerMetrics } from '../pipeline/indexer-metrics.js';
import type { BlockPublisher, DecodedBlock } from '../publish/block-publisher.js';
import type { CheckpointBlock, CheckpointStore } from '../store/checkpoint-store.js';
import { abortableSleep, runWithRestarts } from '../sync/run-with-restarts.js';
import type { SolanaBlock } from './solana-block.js';
import { decodeSolanaBlock } from './decode-solana-block.js';

export interface SolanaChainIndexerOptions {
  chainId: string;
  rpc: Rpc<SolanaRpcApi>;
  /** First slot indexed when the chain has no checkpoint. */
  startSlot: bigint;
  pollIntervalMs: number;
  /** Blocks fetched at the same time. */
  concurrency: number;
  /** Most blocks published to Kafka and checkpointed together. */
  publishBatchSize: number;
  checkpoints: CheckpointStore;
  publisher: BlockPublisher;
  logger: Logger;
  metrics: IndexerMetrics;
  decode?: (input: { chainId: string; slot: bigint; block: SolanaBlock }) => DecodedBlockContent;
}

export interface SolanaChainIndexer {
  /** Indexes until `signal` aborts; restarts from the checkpoint after any failure. */
  run(signal: AbortSignal): Promise<void>;
}

/** The indexer found a block that does not extend the newest one it published: finalized blocks never fork, so the chain was replaced. */
export class SolanaChainMismatchError extends Error {}

/**
 * Finalized blocks only: a finalized Solana block is never rolled back, so the topics carry no
 * rollbacks for Solana and every consumer's rollback handling stays EVM-only. The price is about
 * 32 slots (some 13 s) of latency behind `confirmed`.
 */
const commitment = 'finalized';

/** Slots asked of getBlocks at once (nodes allow 500,000; a smaller range keeps each answer small). */
const slotRange = 2_000n;

/** Checkpoint rows kept: the newest is all a restart needs; a few more help a reader of the table. */
const checkpointsKept = 32n;

export function createSolanaChainIndexer(options: SolanaChainIndexerOptions): SolanaChainIndexer {
  const { chainId, rpc, checkpoints, publisher, metrics } = options;
  const decode = options.decode ?? decodeSolanaBlock;
  const logger = options.logger.child({ chain: chainId });
  const labels = { chain: chainId };

  async function fetchBlock(slot: bigint, signal: AbortSignal): Promise<SolanaBlock> {
    const block = await rpc
      .getBlock(slot, { commitment, encoding: 'json', maxSupportedTransactionVersion: 0, transactionDetails: 'full', rewards: false })
      .send({ abortSignal: signal });
    if (!block) throw new Error(`getBlock(${slot}) on ${chainId} answered null for a slot getBlocks listed`);
    return block as unknown as SolanaBlock;
  }

  async function runOnce(signal: AbortSignal): Promise<void> {
    const [newest] = await checkpoints.recent(chainId, 1);
    let sequence = await checkpoints.lastSequence(chainId);
    // As the EVM indexer: wall-time microseconds keep sequences increasing across restarts.
    const nextSequence = (): bigint => {
      const now = BigInt(Date.now()) * 1000n;
      sequence = now > sequence ? now : sequence + 1n;
      return sequence;
    };
    let parentHash = newest?.hash as string | undefined;
    let nextSlot = newest ? newest.number + 1n : options.startSlot;
    logger.info({ resumeAfter: newest?.number.toString() ?? null }, 'indexing Solana chain');
    let lastProgress = { at: Date.now(), slot: nextSlot };

    while (!signal.aborted) {
      const head = await rpc.getSlot({ commitment }).send({ abortSignal: signal });
      metrics.head.set(labels, Number(head));
      metrics.lag.set(labels, Math.max(0, Number(head - nextSlot + 1n)));
      if (head < nextSlot) {
        await abortableSleep(options.pollIntervalMs, signal);
        continue;
      }
      const end = head < nextSlot + slotRange - 1n ? head : nextSlot + slotRange - 1n;
      const slots = await rpc.getBlocks(nextSlot, end, { commitment }).send({ abortSignal: signal });
      const batchAt = (start: number) => slots.slice(start, start + options.publishBatchSize).map((slot) => BigInt(slot));
      const fetchBatch = (batch: bigint[]) => {
        const fetched = mapConcurrently(batch, options.concurrency, (slot) => fetchBlock(slot, signal));
        // Awaited in its turn; a failure before then must not surface as an unhandled rejection.
        fetched.catch(() => undefined);
        return fetched;
      };
      let next = fetchBatch(batchAt(0));
      for (let start = 0; start < slots.length && !signal.aborted; start += options.publishBatchSize) {
        const batch = batchAt(start);
        const blocks = await next;
        // The next batch is fetched while this one is decoded and published.
        if (start + options.publishBatchSize < slots.length) next = fetchBatch(batchAt(start + options.publishBatchSize));
        const decoded: (DecodedBlock & { sequence: bigint })[] = [];
        batch.forEach((slot, index) => {
          const block = blocks[index]!;
          if (parentHash !== undefined && block.previousBlockhash !== parentHash) {
            throw new SolanaChainMismatchError(
              `block ${slot} of ${chainId} follows ${block.previousBlockhash}, not ${parentHash} (the newest block published): the chain behind the RPC URL was replaced`,
            );
          }
          parentHash = block.blockhash;
          const content = decode({ chainId, slot, block });
          decoded.push({
            number: slot,
            hash: block.blockhash as Hash,
            parentHash: block.previousBlockhash as Hash,
            timestamp: BigInt(block.blockTime ?? 0),
            transactions: content.transactions,
            balanceChanges: content.balanceChanges,
            poolEvents: [],
            sequence: nextSequence(),
          });
        });
        if (decoded.length === 0) continue;
        await publisher.publishBlocks(decoded);
        const committed: CheckpointBlock[] = decoded.map(({ number, hash, parentHash: parent, timestamp, sequence: blockSequence }) => ({
          number,
          hash,
          parentHash: parent,
          timestamp,
          sequence: blockSequence,
        }));
        await checkpoints.commit(chainId, committed);
        const tip = committed.at(-1)!.number;
        await checkpoints.pruneBelow(chainId, tip - checkpointsKept);
        metrics.blocks.inc(labels, decoded.length);
        metrics.transactions.inc(
          labels,
          decoded.reduce((sum, block) => sum + block.transactions.length, 0),
        );
        metrics.height.set(labels, Number(tip));
      }
      nextSlot = end + 1n;
      if (Date.now() - lastProgress.at >= 10_000) {
        const now = Date.now();
        const slotsPerSecond = (Number(nextSlot - lastProgress.slot) * 1000) / (now - lastProgress.at);
        logger.info({ slot: (nextSlot - 1n).toString(), head: head.toString(), slotsPerSecond: Number(slotsPerSecond.toFixed(1)) }, 'indexing progress');
        lastProgress = { at: now, slot: nextSlot };
      }
    }
  }

  return {
    run: (signal) =>
      runWithRestarts(
        signal,
        {
          logger,
          message: 'Solana chain indexer failed; restarting from the checkpoint',
          isFatal: (error) => error instanceof SolanaChainMismatchError,
          onRestart: () => metrics.restarts.inc(labels),
        },
        runOnce,
      ),
  };
}
