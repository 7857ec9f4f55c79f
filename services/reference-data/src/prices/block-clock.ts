import { epochScoped, remembered } from '@wallet-api/core/cache';
import type { PublicClient } from 'viem';

/**
 * A block found by time: `stable` when it lies at least the stable depth below the head, where
 * reads at it never change. A recent block found under a rollback epoch carries it: reads at it
 * hold until a rollback replaces the epoch.
 */
export interface ClockBlock {
  number: bigint;
  stable: boolean;
  epoch?: string;
}

/** Which block of a chain was the newest at a time. */
export interface BlockClock {
  /**
   * The newest block whose timestamp is at or before `timestamp` (unix seconds); undefined before
   * genesis. With `epoch` (a token that every rollback replaces), recent blocks' timestamps are
   * remembered until it changes.
   */
  blockAt(timestamp: number, epoch?: string): Promise<ClockBlock | undefined>;
}

export interface BlockClockOptions {
  /** Blocks this deep below the head are final enough for their timestamps to be remembered. */
  stableDepth?: bigint;
  maxCachedBlocks?: number;
  /** Recent (not yet stable) blocks' timestamps remembered under one epoch. */
  maxRecentBlocks?: number;
}

/**
 * Binary search over block timestamps read from the node. Searches share their upper levels, so
 * the remembered timestamps make a page of lookups cost a few reads each; a time before the
 * newest remembered stable block is searched below it from memory, without asking the head.
 * Recent blocks can only change in a reorg, and every reorg reaches the services as a rollback:
 * under a caller's rollback epoch their timestamps are remembered too, so a page of recent
 * transactions costs the head read alone after its first lookup.
 */
export function createBlockClock(client: Pick<PublicClient, 'getBlock' | 'getBlockNumber'>, options: BlockClockOptions = {}): BlockClock {
  const stableDepth = options.stableDepth ?? 64n;
  const maxCachedBlocks = options.maxCachedBlocks ?? 100_000;
  const maxRecentBlocks = options.maxRecentBlocks ?? 10_000;
  const timestamps = new Map<bigint, Promise<number>>();
  /** The highest stable block whose timestamp was read, and that timestamp. */
  let newestStable: { number: bigint; timestamp: number } | undefined;
  /** The recent timestamps kept under an epoch: none when it is not the one they were read under. */
  const recentUnder = epochScoped(() => new Map<bigint, Promise<number>>());
  /**
   * Times found between two blocks under an epoch, and their block: a later block cannot fall
   * before a time that already has a successor, so the answer holds until a reorg and the head
   * need not be asked again (a page of recent transactions is priced on every price move).
   */
  const settledUnder = epochScoped(() => new Map<number, ClockBlock>());

  function timestampOf(number: bigint, head: bigint, epoch?: string): Promise<number> {
    const cached = timestamps.get(number);
    if (cached) return cached;
    const read = () => client.getBlock({ blockNumber: number }).then((block) => Number(block.timestamp));
    if (number > head - stableDepth) {
      if (epoch === undefined) return read();
      const kept = recentUnder(epoch);
      if (kept.size >= maxRecentBlocks) kept.delete(kept.keys().next().value!);
      return remembered(kept, number, read);
    }
    return stableTimestamp(number, read());
  }

  function stableTimestamp(number: bigint, read: Promise<number>): Promise<number> {
    timestamps.set(number, read);
    read.then(
      (timestamp) => {
        if (!newestStable || number > newestStable.number) newestStable = { number, timestamp };
      },
      () => timestamps.delete(number),
    );
    if (timestamps.size > maxCachedBlocks) timestamps.delete(timestamps.keys().next().value!);
    return read;
  }

  /** The newest block at or before `timestamp` in [low, high), given timestamp(low) <= t < timestamp(high). */
  async function search(timestamp: number, low: bigint, high: bigint, head: bigint, epoch?: string): Promise<bigint> {
    while (high - low > 1n) {
      const middle = (low + high) / 2n;
      if ((await timestampOf(middle, head, epoch)) <= timestamp) low = middle;
      else high = middle;
    }
    return low;
  }

  return {
    async blockAt(timestamp, epoch) {
      const stable = newestStable;
      if (stable && timestamp < stable.timestamp && timestamps.has(stable.number)) {
        // Every block up to the newest remembered stable one is stable: their timestamps come from
        // memory (or are read once), and the head cannot change the answer.
        if ((await timestampOf(0n, stable.number + stableDepth)) > timestamp) return undefined;
        return { number: await search(timestamp, 0n, stable.number, stable.number + stableDepth), stable: true };
      }
      const settled = epoch === undefined ? undefined : settledUnder(epoch);
      const known = settled?.get(timestamp);
      if (known) return known;
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const found = (number: bigint): ClockBlock =>
        number <= head - stableDepth ? { number, stable: true } : { number, stable: false, ...(epoch === undefined ? {} : { epoch }) };
      if ((await timestampOf(head, head, epoch)) <= timestamp) return found(head);
      if ((await timestampOf(0n, head, epoch)) > timestamp) return undefined;
      const block = found(await search(timestamp, 0n, head, head, epoch));
      if (settled) {
        if (settled.size >= maxRecentBlocks) settled.delete(settled.keys().next().value!);
        settled.set(timestamp, block);
      }
      return block;
    },
  };
}
