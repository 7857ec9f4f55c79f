import type { Hash, PublicClient } from 'viem';
import { backoffDelay, defaultRetryPolicy, type RetryPolicy } from './backoff.js';
import { findCommonAncestor, reconcile, type BlockRef, type Header, type Reconciliation } from './reconcile.js';

export interface FollowedBlock extends Header {
  timestamp: bigint;
}

export type FollowerEvent =
  | { type: 'block'; block: FollowedBlock }
  | { type: 'reorg'; commonAncestor: BlockRef; orphaned: BlockRef[] }
  /** Every block at or below `number` is final: no later reorg will orphan it. */
  | { type: 'finalized'; number: bigint; hash: Hash };

export interface BlockFollowerOptions {
  client: Pick<PublicClient, 'getBlock' | 'getBlockNumber'>;
  chainId: string;
  startBlock: bigint;
  finalityDepth: number;
  pollIntervalMs: number;
  /**
   * The last headers the consumer committed, ascending. Following resumes after the last one, and
   * a reorg is found only as deep as these reach, so pass at least `finalityDepth + 1` of them.
   */
  fromCheckpoint?: readonly BlockRef[];
  /** Headers fetched in parallel while catching up. */
  batchSize?: number;
  retry?: RetryPolicy;
  /** Told about every transient failure the follower recovers from, for logs and metrics. */
  onTransientError?: (error: unknown) => void;
}

export interface BlockFollower {
  /** Stops, without an error, once `signal` aborts. */
  events(signal: AbortSignal): AsyncGenerator<FollowerEvent>;
}

/** The chain reorganized below what the follower keeps or below a block it called final. */
export class ReorgTooDeepError extends Error {
  constructor(chainId: string, tip: BlockRef | undefined) {
    super(`chain ${chainId}: reorg below finality (follower tip ${tip ? `${tip.number} ${tip.hash}` : 'none'})`);
    this.name = 'ReorgTooDeepError';
  }
}

class AbortedError extends Error {}

/** Blocks kept beyond the finality depth, so the finalized block itself can be a common ancestor. */
const windowMargin = 8;

export function createBlockFollower(options: BlockFollowerOptions): BlockFollower {
  const { client, chainId, startBlock, pollIntervalMs } = options;
  const finalityDepth = BigInt(options.finalityDepth);
  const batchSize = options.batchSize ?? 50;
  const retry = options.retry ?? defaultRetryPolicy;
  const windowSize = options.finalityDepth + 1 + windowMargin;

  async function* events(signal: AbortSignal): AsyncGenerator<FollowerEvent> {
    const window: BlockRef[] = (options.fromCheckpoint ?? []).slice(-windowSize).map(({ number, hash }) => ({ number, hash }));
    // Blocks at or below this were final before the checkpoint was taken, or precede the start.
    let finalized = window.length > 0 ? window.at(-1)!.number - finalityDepth : startBlock - 1n;

    async function call<T>(request: () => Promise<T>): Promise<T> {
      for (let attempt = 0; ; attempt++) {
        if (signal.aborted) throw new AbortedError();
        try {
          const result = await request();
          if (signal.aborted) throw new AbortedError();
          return result;
        } catch (error) {
          if (error instanceof AbortedError || attempt + 1 >= retry.attempts) throw error;
          options.onTransientError?.(error);
          await sleep(backoffDelay(attempt, retry), signal);
        }
      }
    }

    async function fetchHeader(number: bigint): Promise<FollowedBlock> {
      const block = await client.getBlock({ blockNumber: number, includeTransactions: false });
      if (block.hash === null || block.number === null) throw new Error(`chain ${chainId}: block ${number} came back pending`);
      return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
    }

    function* extend(block: FollowedBlock): Generator<FollowerEvent> {
      window.push({ number: block.number, hash: block.hash });
      if (window.length > windowSize) window.splice(0, window.length - windowSize);
      yield { type: 'block', block };
      const target = block.number - finalityDepth;
      if (target <= finalized) return;
      finalized = target;
      const final = window.find((entry) => entry.number === target);
      if (final) yield { type: 'finalized', number: final.number, hash: final.hash };
    }

    /** Rewinds the window to the common ancestor; false when the chain turned out not to have moved. */
    async function* rewind(outcome: Exclude<Reconciliation, { type: 'extend' } | { type: 'known' }>): AsyncGenerator<FollowerEvent, boolean> {
      const search = outcome.type === 'detached' ? await findCommonAncestor(window, async (number) => (await call(() => fetchHeader(number))).hash) : outcome;
      if (search.type === 'reorg-too-deep' || search.commonAncestor.number < finalized) throw new ReorgTooDeepError(chainId, window.at(-1));
      // A node behind a load balancer can serve a header the rest of the chain never saw.
      if (search.orphaned.length === 0) return false;
      window.splice(window.length - search.orphaned.length);
      yield { type: 'reorg', commonAncestor: search.commonAncestor, orphaned: search.orphaned };
      return true;
    }

    /** Brings the window up to the current head. */
    async function* round(): AsyncGenerator<FollowerEvent> {
      const head = await call(() => client.getBlockNumber({ cacheTime: 0 }));
      for (;;) {
        const tip = window.at(-1);
        const next = tip ? tip.number + 1n : startBlock;
        if (next > head) {
          // A head below the window is a lagging node; one inside it may still have been replaced.
          if (!tip || head < window[0]!.number) return;
          const outcome = reconcile(window, await call(() => fetchHeader(head)));
          if (outcome.type === 'known' || outcome.type === 'extend') return;
          if (!(yield* rewind(outcome))) return;
          continue;
        }
        const last = next + BigInt(batchSize) - 1n < head ? next + BigInt(batchSize) - 1n : head;
        const numbers = Array.from({ length: Number(last - next + 1n) }, (_, offset) => next + BigInt(offset));
        // Retried one by one, and the headers before a failure are kept: a batch retried or dropped
        // whole fails as long as any one of its requests does.
        const fetched = await Promise.allSettled(numbers.map((number) => call(() => fetchHeader(number))));
        for (const result of fetched) {
          if (result.status === 'rejected') throw result.reason;
          const header = result.value;
          const outcome = reconcile(window, header);
          if (outcome.type === 'extend') {
            yield* extend(header);
            continue;
          }
          if (outcome.type === 'known') continue;
          // The rest of the batch may belong to either branch: fetch again from the ancestor.
          if (!(yield* rewind(outcome))) return;
          break;
        }
      }
    }

    let failedRounds = 0;
    while (!signal.aborted) {
      try {
        yield* round();
        failedRounds = 0;
        await sleep(pollIntervalMs, signal);
      } catch (error) {
        if (error instanceof ReorgTooDeepError) throw error;
        if (signal.aborted) return;
        options.onTransientError?.(error);
        await sleep(backoffDelay(failedRounds++, retry), signal);
      }
    }
  }

  return { events };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
