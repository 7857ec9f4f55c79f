import { SpanKind, context, trace } from '@opentelemetry/api';
import kafkajs, { type Kafka, type Producer } from 'kafkajs';
import { injectTraceContext } from '../telemetry/index.js';
import type { TopicSpec } from './topics.js';

export interface OutgoingMessage<T> {
  key: string;
  value: T;
}

export interface MessageProducer {
  /** Resolves once the broker has acknowledged every message (acks from all in-sync replicas). */
  send<T>(topic: TopicSpec<T>, messages: readonly OutgoingMessage<T>[]): Promise<void>;
  disconnect(): Promise<void>;
}

const tracer = trace.getTracer('@wallet-api/core/kafka');

/**
 * Bytes of message values per produce request. A request's messages for one partition travel as
 * one record batch, which the broker refuses above its message.max.bytes (1 MiB by default); a
 * block that pays a thousand wallets makes a few hundred transactions of 50-100 KB each.
 */
export const produceRequestBytes = 768 * 1024;

/** Consecutive groups of messages whose values stay under `produceRequestBytes` (a larger message goes alone). */
export function byRequest<M extends { value: Buffer }>(messages: readonly M[], budget = produceRequestBytes): M[][] {
  const requests: M[][] = [];
  let bytes = Infinity;
  for (const message of messages) {
    if (bytes + message.value.length > budget) {
      requests.push([]);
      bytes = 0;
    }
    requests.at(-1)!.push(message);
    bytes += message.value.length;
  }
  return requests;
}

/**
 * An idempotent producer: broker-side sequence numbers drop the duplicates a retry would create,
 * so a retried send never writes a message twice. Every message carries the sender's trace
 * context in its headers.
 */
export async function createProducer(kafka: Kafka): Promise<MessageProducer> {
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: kafkajs.Partitioners.DefaultPartitioner,
    // An idempotent producer keeps retrying rather than give up and leave a gap; a send resolves
    // only once the broker has the messages.
    retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 5_000 },
  });
  await producer.connect();
  return {
    async send(topic, messages) {
      if (messages.length === 0) return;
      await tracer.startActiveSpan(`${topic.name} publish`, { kind: SpanKind.PRODUCER }, async (span) => {
        try {
          const headers = injectTraceContext({}, context.active());
          const encoded = messages.map((message) => ({ key: message.key, value: Buffer.from(topic.codec.encode(message.value).finish()), headers }));
          // One request after another: a partition keeps them in the order they were sent.
          for (const request of byRequest(encoded)) await producer.send({ topic: topic.name, acks: -1, messages: request });
        } finally {
          span.end();
        }
      });
    },
    disconnect: () => producer.disconnect(),
  };
}
