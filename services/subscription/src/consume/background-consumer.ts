import type { Logger } from '@wallet-api/core/logger';
import type { MessageConsumer } from '@wallet-api/core/kafka';

/**
 * Starts a Kafka consumer without holding the service back: joining a group can wait out a dead
 * member's session (30 s after a kill -9), and Kafka may be down when the service starts, while
 * the subscription API and the dispatcher should serve at once. Retries until it starts or is stopped.
 */
export function startInBackground(name: string, start: () => Promise<MessageConsumer>, logger: Logger, retryMs = 2_000, joinGraceMs = 2_000): MessageConsumer {
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  const running = (async (): Promise<MessageConsumer | undefined> => {
    while (!stopped) {
      try {
        return await start();
      } catch (error) {
        logger.warn({ err: error, consumer: name }, 'Kafka consumer did not start; trying again');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryMs);
          wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
    return undefined;
  })();
  return {
    async stop() {
      stopped = true;
      wakeUp?.();
      // A consumer still joining its group may wait out a rebalance: leave it to the exiting process.
      // Nothing is lost, since the matcher's positions live in PostgreSQL.
      const started = await Promise.race([running, new Promise<'joining'>((resolve) => setTimeout(() => resolve('joining'), joinGraceMs).unref())]);
      if (started === 'joining') {
        logger.warn({ consumer: name }, 'Kafka consumer still joining its group at shutdown; left to the exiting process');
        return;
      }
      await started?.stop();
    },
  };
}
