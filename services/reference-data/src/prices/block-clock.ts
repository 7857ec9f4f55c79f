import type { PublicClient } from 'viem';

/** Which block of a chain was the newest at a time. */
export interface BlockClock {
  /** The newest block whose timestamp is at or before `timestamp` (unix seconds); undefined before genesis. */
  blockAt(timestamp: number): Promise<bigint | undefined>;
}

export interface BlockClockOptions {
  /** Blocks this deep below the head are final enough for their timestamps to be remembered. */
  stableDepth?: bigint;
  maxCachedBlocks?: number;
}

/**
 * Binary search over block timestamps read from the node. Searches share their upper levels, so
 * the remembered timestamps make a page of lookups cost a few reads each.
 */
export function createBlockClock(client: Pick<PublicClient, 'getBlock' | 'getBlockNumber'>, options: BlockClockOptions = {}): BlockClock {
  const stableDepth = options.stableDepth ?? 64n;
  const maxCachedBlocks = options.maxCachedBlocks ?? 100_000;
  const timestamps = new Map<bigint, Promise<number>>();

  function timestampOf(number: bigint, head: bigint): Promise<number> {
    const cached = timestamps.get(number);
    if (cached) return cached;
    const read = client.getBlock({ blockNumber: number }).then((block) => Number(block.timestamp));
    if (number <= head - stableDepth) {
      timestamps.set(number, read);
      read.catch(() => timestamps.delete(number));
      if (timestamps.size > maxCachedBlocks) timestamps.delete(timestamps.keys().next().value!);
    }
    return read;
  }

  return {
    async blockAt(timestamp) {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      if ((await timestampOf(head, head)) <= timestamp) return head;
      if ((await timestampOf(0n, head)) > timestamp) return undefined;
      // Invariant: timestamp(low) <= t < timestamp(high).
      let low = 0n;
      let high = head;
      while (high - low > 1n) {
        const middle = (low + high) / 2n;
        if ((await timestampOf(middle, head)) <= timestamp) low = middle;
        else high = middle;
      }
      return low;
    },
  };
}
