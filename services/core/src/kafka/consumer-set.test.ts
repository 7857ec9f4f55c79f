import type { MessageConsumer } from './consumer-common.js';
import { createConsumerSet } from './consumer-set.js';

/** A consumer that records when it stops, started after `delayMs`. */
function consumer(name: string, log: string[], delayMs = 0): Promise<MessageConsumer> {
  return new Promise((resolve) =>
    setTimeout(
      () =>
        resolve({
          async stop() {
            log.push(`stop ${name}`);
          },
        }),
      delayMs,
    ),
  );
}

describe('createConsumerSet', () => {
  test('stop runs beforeStop first, then stops every consumer once; a second stop stops none again', async () => {
    const log: string[] = [];
    const set = createConsumerSet(() => [consumer('a', log), consumer('b', log, 5)], {
      beforeStop: async () => {
        log.push('before');
      },
    });
    await set.start();
    expect(log).toEqual([]);
    await set.stop();
    expect(log).toEqual(['before', 'stop a', 'stop b']);
    await set.stop();
    expect(log).toEqual(['before', 'stop a', 'stop b', 'before']);
  });

  test('a consumer that fails to start stops those that started, even the slower ones, and start throws its error', async () => {
    const log: string[] = [];
    const refused = new Error('group coordinator not available');
    const set = createConsumerSet(() => [consumer('a', log), Promise.reject(refused), consumer('c', log, 20)], {
      beforeStop: async () => {
        log.push('before');
      },
    });
    await expect(set.start()).rejects.toBe(refused);
    expect(log).toEqual(['before', 'stop a', 'stop c']);
  });

  test('start again after a stop starts a fresh set of consumers', async () => {
    const log: string[] = [];
    let generation = 0;
    const set = createConsumerSet(() => [consumer(`a${++generation}`, log)]);
    await set.start();
    await set.stop();
    await set.start();
    await set.stop();
    expect(log).toEqual(['stop a1', 'stop a2']);
  });
});
