import type { PublicClient } from 'viem';

/** A block found by time: `stable` when it lies at least the stable depth below the head, where reads at it never change. */
export interface ClockBlock {
  number: bigint;
  stable: boolean;
}

/** Which block of a chain was the newest at a time. */
export interface BlockClock {
  /** The newest block whose timestamp is at or before `timestamp` (unix seconds); undefined before genesis. */
  blockAt(timestamp: number): Promise<ClockBlock | undefined>;
}

export interface BlockClockOptions {
  /** Blocks this deep below the head are final enough for their timestamps to be remembered. */
  stableDepth?: bigint;
  maxCachedBlocks?: number;
}

/**
 * Binary search over block timestamps read from the node. Searches share their upper levels, so
 * the remembered timestamps make a page of lookups cost a few reads each; a time before the
 * newest remembered stable block is searched below it from memory, without asking the head.
 */
export function createBlockClock(client: Pick<PublicClient, 'getBlock' | 'getBlockNumber'>, options: BlockClockOptions = {}): BlockClock {
  const stableDepth = options.stableDepth ?? 64n;
  const maxCachedBlocks = options.maxCachedBlocks ?? 100_000;
  const timestamps = new Map<bigint, Promise<number>>();
  /** The highest stable block whose timestamp was read, and that timestamp. */
  let newestStable: { number: bigint; timestamp: number } | undefined;

  function timestampOf(number: bigint, head: bigint): Promise<number> {
    const cached = timestamps.get(number);
    if (cached) return cached;
    const read = client.getBlock({ blockNumber: number }).then((block) => Number(block.timestamp));
    if (number <= head - stableDepth) {
      timestamps.set(number, read);
      read.then(
        (timestamp) => {
          if (!newestStable || number > newestStable.number) newestStable = { number, timestamp };
        },
        () => timestamps.delete(number),
      );
      if (timestamps.size > maxCachedBlocks) timestamps.delete(timestamps.keys().next().value!);
    }
    return read;
  }

  /** The newest block at or before `timestamp` in [low, high), given timestamp(low) <= t < timestamp(high). */
  async function search(timestamp: number, low: bigint, high: bigint, head: bigint): Promise<bigint> {
    while (high - low > 1n) {
      const middle = (low + high) / 2n;
      if ((await timestampOf(middle, head)) <= timestamp) low = middle;
      else high = middle;
    }
    return low;
  }

  return {
    async blockAt(timestamp) {
      const stable = newestStable;
      if (stable && timestamp < stable.timestamp && timestamps.has(stable.number)) {
        // Every block up to the newest remembered stable one is stable: their timestamps come from
        // memory (or are read once), and the head cannot change the answer.
        if ((await timestampOf(0n, stable.number + stableDepth)) > timestamp) return undefined;
        return { number: await search(timestamp, 0n, stable.number, stable.number + stableDepth), stable: true };
      }
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const isStable = (number: bigint) => number <= head - stableDepth;
      if ((await timestampOf(head, head)) <= timestamp) return { number: head, stable: isStable(head) };
      if ((await timestampOf(0n, head)) > timestamp) return undefined;
      const number = await search(timestamp, 0n, head, head);
      return { number, stable: isStable(number) };
    },
  };
}
