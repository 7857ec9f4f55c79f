import type { MessageConsumer } from './consumer-common.js';

/** A service's consumers, started and stopped as one. */
export interface ConsumerSet {
  /** Starts every consumer at once: all run, or none does (the first failure is thrown). */
  start(): Promise<void>;
  /** Runs `beforeStop`, then stops every consumer, each committing what it handled. */
  stop(): Promise<void>;
}

/**
 * The consumers `startAll` starts, as one. `beforeStop` stores what waits in memory, so that the
 * consumers' last commits do not wait for its delay; it runs on every stop, and when a start fails.
 */
export function createConsumerSet(startAll: () => readonly Promise<MessageConsumer>[], options: { beforeStop?: () => Promise<void> } = {}): ConsumerSet {
  let running: MessageConsumer[] = [];
  const set: ConsumerSet = {
    async start() {
      const started = await Promise.allSettled(startAll());
      running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const failure = started.find((result) => result.status === 'rejected');
      if (failure) {
        await set.stop();
        throw failure.reason;
      }
    },
    async stop() {
      const stopping = running;
      running = [];
      await options.beforeStop?.();
      await Promise.all(stopping.map((consumer) => consumer.stop()));
    },
  };
  return set;
}
