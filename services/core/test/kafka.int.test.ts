import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Kafka } from 'kafkajs';
import { ensureTopics, createProducer, startConsumer, type IncomingMessage, type MessageConsumer, type TopicSpec } from '../src/kafka/index.js';
import { ChainBlock } from '../src/proto/events.js';
import { startTelemetry, type Telemetry } from '../src/telemetry/index.js';
import { setupKafka, testLogger, uniqueName } from '../src/testing/index.js';

function block(number: number): ChainBlock {
  return { chainId: 'ethereum', number: String(number), hash: `0x${number.toString(16).padStart(64, '0')}`, parentHash: '0x00', timestamp: String(1_700_000_000 + number), sequence: String(number), transactionCount: 0 };
}

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
      await producer.send(topic, [1, 2, 3, 4, 5].map((n) => ({ key: `chain-${n % 2}`, value: block(n) })));
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

    await producer.send(topic, [6, 7, 8].map((n) => ({ key: `chain-${n % 2}`, value: block(n) })));
    const second = await startConsumer(kafka, { groupId, topic, handle, logger: testLogger });
    consumers.push(second);
    await waitFor(() => received.length >= 8);
    // Give a duplicate, if any, the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await producer.disconnect();
    expect(received.map((message) => message.value.number).sort()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });
});
