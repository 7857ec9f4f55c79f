import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Kafka } from 'kafkajs';
import {
  ensureTopics,
  createProducer,
  startAccumulatingConsumer,
  startConsumer,
  type IncomingMessage,
  type MessageConsumer,
  type TopicSpec,
} from '../src/kafka/index.js';
import { ChainBlock } from '../src/generated/proto/events.js';
import { startTelemetry, type Telemetry } from '../src/telemetry/index.js';
import { setupKafka, testLogger, uniqueName } from '../src/testing/index.js';

function block(number: number): ChainBlock {
  return {
    chainId: 'ethereum',
    number: String(number),
    hash: `0x${number.toString(16).padStart(64, '0')}`,
    parentHash: '0x00',
    timestamp: String(1_700_000_000 + number),
    sequence: String(number),
    transactionCount: 0,
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for condition');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Kafka producer and consumer wrappers against the real broker', () => {
  let kafka: Kafka;
  let telemetry: Telemetry;
  const spans = new InMemorySpanExporter();
  const topic: TopicSpec<ChainBlock> = { name: uniqueName('test.blocks'), partitions: 2, retentionMs: 3_600_000, keyedBy: 'chain id', codec: ChainBlock };
  const consumers: MessageConsumer[] = [];

  beforeAll(async () => {
    telemetry = startTelemetry({ serviceName: 'kafka-test', spanProcessors: [new SimpleSpanProcessor(spans)] });
    kafka = setupKafka('kafka-int-test');
    const changes = await ensureTopics(kafka, [topic]);
    expect(changes).toEqual([{ topic: topic.name, action: 'created' }]);
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await telemetry.shutdown();
  });

  test('ensureTopics is idempotent and creates the declared partitions and retention', async () => {
    expect(await ensureTopics(kafka, [topic])).toEqual([{ topic: topic.name, action: 'unchanged' }]);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: [topic.name] });
      expect(metadata.topics[0]!.partitions).toHaveLength(2);
      const configs = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 2, name: topic.name, configNames: ['retention.ms'] }] });
      expect(configs.resources[0]!.configEntries[0]!.configValue).toBe('3600000');
    } finally {
      await admin.disconnect();
    }
  });

  test('round trip, then a restarted consumer resumes from its committed offset without loss or duplicates', async () => {
    const groupId = uniqueName('test-group');
    const producer = await createProducer(kafka);
    const received: IncomingMessage<ChainBlock>[] = [];
    let failOnce = true;
    const handle = async (message: IncomingMessage<ChainBlock>) => {
      // A handler failure must lead to redelivery, never to a skipped message.
      if (message.value.number === '3' && failOnce) {
        failOnce = false;
        throw new Error('transient failure');
      }
      received.push(message);
    };

    const tracer = trace.getTracer('kafka-test');
    const sentTraceId = await tracer.startActiveSpan('produce first half', async (span) => {
      await producer.send(
        topic,
        [1, 2, 3, 4, 5].map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
      );
      span.end();
      return span.spanContext().traceId;
    });

    const first = await startConsumer(kafka, { groupId, topic, handle, logger: testLogger });
    await waitFor(() => received.length === 5);
    await first.stop();
    expect(received.map((message) => message.value.number).sort()).toEqual(['1', '2', '3', '4', '5']);
    expect(received[0]!.value).toEqual(block(Number(received[0]!.value.number)));

    // The consumer's processing span continues the producer's trace through the message headers.
    const processSpans = spans.getFinishedSpans().filter((span) => span.name === `${topic.name} process`);
    expect(processSpans.length).toBeGreaterThanOrEqual(5);
    expect(processSpans.every((span) => span.spanContext().traceId === sentTraceId)).toBe(true);

    await producer.send(
      topic,
      [6, 7, 8].map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
    );
    const second = await startConsumer(kafka, { groupId, topic, handle, logger: testLogger });
    consumers.push(second);
    await waitFor(() => received.length >= 8);
    // Give a duplicate, if any, the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await producer.disconnect();
    expect(received.map((message) => message.value.number).sort()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });
  test('one send of more than the broker takes in a request (3 MiB on one key) arrives whole and in order', async () => {
    const groupId = uniqueName('test-group');
    const producer = await createProducer(kafka);
    // 50 messages of 64 KiB: a busy block's transactions, each naming many wallets.
    const large = (n: number) => ({ ...block(n), parentHash: `0x${String(n % 10).repeat(64 * 1024)}` });
    const numbers = range(5_001, 5_050);
    await producer.send(
      topic,
      numbers.map((n) => ({ key: 'chain-busy', value: large(n) })),
    );
    const received: ChainBlock[] = [];
    consumers.push(await startConsumer(kafka, { groupId, topic, handle: async (message) => void received.push(message.value), logger: testLogger }));
    await waitFor(() => received.filter((value) => Number(value.number) > 5_000).length === numbers.length);
    await producer.disconnect();
    const busy = received.filter((value) => Number(value.number) > 5_000);
    expect(busy.map((value) => Number(value.number))).toEqual(numbers);
    expect(busy.every((value) => value.parentHash === large(Number(value.number)).parentHash)).toBe(true);
  });

  describe('the accumulating consumer', () => {
    const numbers = (batches: IncomingMessage<ChainBlock>[][]) =>
      batches
        .flat()
        .map((message) => Number(message.value.number))
        .sort((a, b) => a - b);

    test('hands what arrived within the delay over in one call, across partitions, each partition in order', async () => {
      const groupId = uniqueName('test-accumulate');
      const producer = await createProducer(kafka);
      const batches: IncomingMessage<ChainBlock>[][] = [];
      const consumer = await startAccumulatingConsumer(kafka, {
        groupId,
        topic,
        logger: testLogger,
        maxDelayMs: 1_500,
        handleBatch: async (messages) => void batches.push(messages),
      });
      consumers.push(consumer);
      // The group reads the earlier tests' messages first; then 40 more go to both partitions in four sends.
      await waitFor(() => numbers(batches).filter((n) => n <= 8).length >= 8);
      const before = batches.length;
      for (let send = 0; send < 4; send++)
        await producer.send(
          topic,
          range(1_001 + send * 10, 1_010 + send * 10).map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
        );
      await waitFor(() => numbers(batches.slice(before)).length >= 40);
      await producer.disconnect();
      const fresh = batches.slice(before);
      expect(fresh).toHaveLength(1);
      expect(new Set(fresh[0]!.map((message) => message.partition)).size).toBe(2);
      for (const partition of [0, 1]) {
        const offsets = fresh[0]!.filter((message) => message.partition === partition).map((message) => BigInt(message.offset));
        expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : 1)));
      }
      expect(numbers(fresh).filter((n) => n > 1_000)).toEqual(range(1_001, 1_040));
    });

    test('messages that arrive while the handler runs are handed over within the delay, with no traffic after them', async () => {
      const groupId = uniqueName('test-accumulate');
      const producer = await createProducer(kafka);
      const batches: IncomingMessage<ChainBlock>[][] = [];
      let slow = true;
      const consumer = await startAccumulatingConsumer(kafka, {
        groupId,
        topic,
        logger: testLogger,
        maxDelayMs: 300,
        handleBatch: async (messages) => {
          if (slow && messages.some((message) => Number(message.value.number) > 3_000)) {
            slow = false;
            await producer.send(
              topic,
              [3_002].map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
            );
            await new Promise((resolve) => setTimeout(resolve, 1_500));
          }
          batches.push(messages);
        },
      });
      consumers.push(consumer);
      await producer.send(
        topic,
        [3_001].map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
      );
      await waitFor(() => numbers(batches).includes(3_002), 15_000);
      await producer.disconnect();
    });

    test('flushes at maxMessages without waiting, re-hands a failed batch, and commits only what was stored', async () => {
      const groupId = uniqueName('test-accumulate');
      const producer = await createProducer(kafka);
      await producer.send(
        topic,
        range(2_001, 2_030).map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
      );
      const stored: IncomingMessage<ChainBlock>[][] = [];
      let failures = 1;
      const handleBatch = async (messages: IncomingMessage<ChainBlock>[]) => {
        if (failures-- > 0) throw new Error('store unavailable');
        stored.push(messages);
      };
      const started = Date.now();
      // An hour's delay: every flush here is a full buffer's, or the stop's.
      const first = await startAccumulatingConsumer(kafka, { groupId, topic, logger: testLogger, maxMessages: 5, maxDelayMs: 3_600_000, handleBatch });
      await waitFor(() => numbers(stored).filter((n) => n > 2_000 && n < 3_000).length >= 25);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(stored.map((messages) => messages.length).filter((size) => size < 5)).toEqual([]);
      await first.stop();
      const afterFirst = numbers(stored).filter((n) => n > 2_000 && n < 3_000);
      // Nothing was lost to the failure, and the stop flushed what was waiting.
      expect(afterFirst).toEqual(range(2_001, 2_030));

      await producer.send(
        topic,
        range(2_031, 2_035).map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
      );
      await producer.disconnect();
      const resumed: IncomingMessage<ChainBlock>[][] = [];
      const second = await startAccumulatingConsumer(kafka, {
        groupId,
        topic,
        logger: testLogger,
        maxDelayMs: 200,
        handleBatch: async (messages) => void resumed.push(messages),
      });
      consumers.push(second);
      await waitFor(() => numbers(resumed).includes(2_035));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // The committed offsets were those of the stored messages: the second member starts after them.
      expect(numbers(resumed).filter((n) => n > 2_000 && n < 3_000)).toEqual(range(2_031, 2_035));
    });

    test('a handler that answers with `durable` has its offsets committed once that resolves, and never when it rejects', async () => {
      const admin = kafka.admin();
      await admin.connect();
      const producer = await createProducer(kafka);
      await producer.send(
        topic,
        range(4_001, 4_006).map((n) => ({ key: `chain-${n % 2}`, value: block(n) })),
      );
      await producer.disconnect();
      const ends = new Map((await admin.fetchTopicOffsets(topic.name)).map(({ partition, high }) => [partition, high]));
      const committed = async (groupId: string) => {
        const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic.name] });
        return new Map(offsets!.partitions.map(({ partition, offset }) => [partition, offset]));
      };

      const groupId = uniqueName('test-durable');
      const handled: IncomingMessage<ChainBlock>[][] = [];
      const settlers: { resolve(): void }[] = [];
      const consumer = await startAccumulatingConsumer(kafka, {
        groupId,
        topic,
        logger: testLogger,
        maxDelayMs: 200,
        handleBatch: async (messages) => {
          handled.push(messages);
          return { durable: new Promise<void>((resolve) => settlers.push({ resolve })) };
        },
      });
      await waitFor(() => numbers(handled).includes(4_006));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Handled, readable, but not stored: nothing is committed.
      expect([...(await committed(groupId)).values()]).toEqual(['-1', '-1']);
      for (const settler of settlers) settler.resolve();
      const started = Date.now();
      while (Date.now() - started < 15_000) {
        const offsets = await committed(groupId);
        if ([...ends].every(([partition, high]) => offsets.get(partition) === high)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await committed(groupId)).toEqual(ends);
      await consumer.stop();

      const refusedGroup = uniqueName('test-durable');
      const refused = await startAccumulatingConsumer(kafka, {
        groupId: refusedGroup,
        topic,
        logger: testLogger,
        maxDelayMs: 200,
        handleBatch: async () => ({ durable: Promise.reject(new Error('the final INSERT failed')) }),
      });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await refused.stop();
      expect([...(await committed(refusedGroup)).values()]).toEqual(['-1', '-1']);
      await admin.disconnect();
    });
  });
});
