import type { MessageConsumer } from '@wallet-api/core/kafka';
import { testLogger } from '@wallet-api/core/testing';
import { startInBackground } from './background-consumer.js';

const consumer = () => {
  const stopped = { count: 0 };
  const value: MessageConsumer = {
    async stop() {
      stopped.count += 1;
    },
  };
  return { value, stopped };
};

describe('startInBackground', () => {
  test('keeps trying until the consumer starts, and stops the one that started', async () => {
    const started = consumer();
    let attempts = 0;
    const background = startInBackground(
      'test',
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error('broker down');
        return started.value;
      },
      testLogger,
      10,
    );
    while (attempts < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await background.stop();
    expect(attempts).toBe(3);
    expect(started.stopped.count).toBe(1);
  });

  test('stopped while it waits to retry: no further attempt', async () => {
    let attempts = 0;
    const background = startInBackground(
      'test',
      async () => {
        attempts += 1;
        throw new Error('broker down');
      },
      testLogger,
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await background.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(1);
  });

  test('stopped while the consumer is still starting (joining its group): returns after the grace period', async () => {
    const background = startInBackground('test', () => new Promise<MessageConsumer>(() => undefined), testLogger, 10, 50);
    const started = Date.now();
    await background.stop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
