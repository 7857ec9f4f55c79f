/**
 * Bounds how many posts run at once against one callback host. undici's per-origin connection
 * cap bounds sockets too, but it queues the excess inside the request, where the wait would
 * eat into the receiver's timeout and fail deliveries that were never sent. Waiting here,
 * before the clock starts, keeps the timeout about the receiver.
 */
export interface HostLimiter {
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
  /** Tasks running for this host now (not counting those waiting). */
  active(host: string): number;
}

interface HostSlots {
  active: number;
  waiting: (() => void)[];
}

export function createHostLimiter(maxPerHost: number): HostLimiter {
  if (!Number.isSafeInteger(maxPerHost) || maxPerHost < 1) throw new RangeError(`maxPerHost must be a positive integer, got ${maxPerHost}`);
  // Entries exist only while a host has work, so idle hosts cost nothing.
  const hosts = new Map<string, HostSlots>();

  function acquire(host: string): Promise<void> | void {
    const slots = hosts.get(host) ?? { active: 0, waiting: [] };
    hosts.set(host, slots);
    if (slots.active < maxPerHost) {
      slots.active += 1;
      return;
    }
    return new Promise((resolve) => slots.waiting.push(resolve));
  }

  function release(host: string): void {
    const slots = hosts.get(host)!;
    const next = slots.waiting.shift();
    // The slot passes straight to the next waiter, so a newcomer cannot jump the queue.
    if (next !== undefined) {
      next();
      return;
    }
    slots.active -= 1;
    if (slots.active === 0) hosts.delete(host);
  }

  return {
    async run(host, task) {
      await acquire(host);
      try {
        return await task();
      } finally {
        release(host);
      }
    },
    active: (host) => hosts.get(host)?.active ?? 0,
  };
}
