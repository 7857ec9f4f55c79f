// An idle consumer must be idle. kafkajs 2.2.4 re-armed a pending-request check with a negative
// delay after every response, so each broker connection ran a timer every millisecond forever
// (upstream issues #1556 and #1704); patches/kafkajs@2.2.4.patch arms it only while requests wait.
// Counted here as timers armed while a joined consumer waits on an empty topic: a handful for its
// long-polling fetches and heartbeats, against about a thousand a second per connection unpatched.
import type { Kafka } from 'kafkajs';
import { ensureTopics, startConsumer, type MessageConsumer, type TopicSpec } from '../src/kafka/index.js';
import { ChainBlock } from '../src/generated/proto/events.js';
import { setupKafka, testLogger, uniqueName } from '../src/testing/index.js';

const topic: TopicSpec<ChainBlock> = { name: uniqueName('test.idle'), partitions: 1, retentionMs: 3_600_000, keyedBy: 'chain id', codec: ChainBlock };
let kafka: Kafka;
let consumer: MessageConsumer | undefined;

beforeAll(async () => {
  kafka = setupKafka('kafka-idle-test');
  await ensureTopics(kafka, [topic]);
});
afterAll(async () => consumer?.stop());

/** Timers armed by anyone in this process during `ms`. */
async function timersArmedDuring(ms: number): Promise<number> {
  const original = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    armed++;
    return original(...args);
  }) as typeof setTimeout;
  try {
    await new Promise((resolve) => original(resolve, ms));
  } finally {
    globalThis.setTimeout = original;
  }
  return armed;
}

test('a consumer waiting on an empty topic arms a few timers a second, not one a millisecond', async () => {
  consumer = await startConsumer(kafka, { groupId: uniqueName('test-idle-group'), topic, logger: testLogger, handle: async () => undefined });
  // Past the join and the first fetches.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const armed = await timersArmedDuring(2_000);
  expect(armed).toBeLessThan(200);
});
