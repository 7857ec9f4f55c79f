import type { Logger } from '@wallet-api/core/logger';
import type { PublicClient } from 'viem';
import { blockSeconds, type BlockPoint } from './block-time.js';
import { classicFromGasPrices } from './classic-gas.js';
import { eip1559FromFeeHistory, rewardPercentiles } from './fee-history-gas.js';
import type { GasInfo, GasSnapshot } from './gas-snapshot.js';

/** One chain's gas prices, read from its node once per new block and served from memory. */
export interface GasTracker {
  readonly chainId: string;
  /** The latest snapshot; undefined until the node has answered once. */
  snapshot(): GasSnapshot | undefined;
  /**
   * One poll: the head's number and, only when it names a block not yet read, that block and its
   * fees. Never rejects: a failed read is logged, the previous snapshot kept, and the next poll
   * tries again.
   */
  poll(): Promise<void>;
  /** Polls every `intervalMs`, one poll at a time. */
  start(): void;
  /** Stops polling, resolving once a poll in progress has finished. */
  stop(): Promise<void>;
}

export interface GasTrackerOptions {
  chainId: string;
  client: PublicClient;
  intervalMs: number;
  logger: Logger;
  /** Blocks of history each snapshot reads (default 20). */
  historyBlocks?: number;
}

export function createGasTracker(options: GasTrackerOptions): GasTracker {
  const { chainId, client, logger } = options;
  const historyBlocks = options.historyBlocks ?? 20;
  let latest: GasSnapshot | undefined;
  // Blocks seen, ascending by number, for the block time; at most historyBlocks + 1.
  let points: BlockPoint[] = [];
  // Pre-London chains only: the gas prices each recent block's transactions paid, by block number,
  // so that each block's transactions are read once while it stays in the window.
  const paidByBlock = new Map<bigint, bigint[]>();
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;

  function remember(point: BlockPoint): void {
    // A head below the last one seen: the chain was reset or reverted; older points may be gone.
    if (points.length > 0 && point.number <= points[points.length - 1]!.number) points = [];
    points.push(point);
    if (points.length > historyBlocks + 1) points = points.slice(-(historyBlocks + 1));
  }

  async function classicInfo(head: bigint): Promise<GasInfo> {
    const first = head >= BigInt(historyBlocks - 1) ? head - BigInt(historyBlocks - 1) : 0n;
    for (const number of paidByBlock.keys()) if (number < first || number > head) paidByBlock.delete(number);
    const missing: bigint[] = [];
    for (let number = first; number <= head; number++) if (!paidByBlock.has(number)) missing.push(number);
    const blocks = await Promise.all(missing.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })));
    for (const block of blocks)
      paidByBlock.set(
        block.number,
        block.transactions.map((transaction) => transaction.gasPrice ?? 0n),
      );
    const paid = [...paidByBlock.values()].flat();
    return classicFromGasPrices(paid, paid.length === 0 ? await client.getGasPrice() : 0n);
  }

  async function read(): Promise<void> {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    // Idle chain: the one cheap call above is all a poll costs.
    if (latest && head === latest.blockNumber) return;
    const block = await client.getBlock({ blockNumber: head });
    remember({ number: head, timestamp: block.timestamp });
    if (points.length < 2 && head > 0n) {
      // Started (or reset) just now: one older block gives the block time a first span.
      const earlier = await client.getBlock({ blockNumber: head > BigInt(historyBlocks) ? head - BigInt(historyBlocks) : 0n });
      points.unshift({ number: earlier.number, timestamp: earlier.timestamp });
    }
    const info =
      block.baseFeePerGas === null
        ? await classicInfo(head)
        : eip1559FromFeeHistory(await client.getFeeHistory({ blockCount: historyBlocks, blockNumber: head, rewardPercentiles }), blockSeconds(points));
    latest = { ...info, chainId, blockNumber: head, updatedAt: Date.now() };
  }

  function poll(): Promise<void> {
    return read().catch((error: unknown) => {
      logger.warn({ chainId, err: error }, 'gas prices: reading the chain failed; the previous snapshot is served and the next poll tries again');
    });
  }

  return {
    chainId,
    snapshot: () => latest,
    poll,
    start() {
      if (timer !== undefined || inFlight !== undefined || stopped) return;
      const tick = async () => {
        inFlight = poll();
        await inFlight;
        inFlight = undefined;
        if (!stopped) timer = setTimeout(() => void tick(), options.intervalMs).unref();
      };
      void tick();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await inFlight;
    },
  };
}
