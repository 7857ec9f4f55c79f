import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Consumer, IHeaders, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { extractTraceContext } from '../telemetry/index.js';
import type { TopicSpec } from './topics.js';

export interface IncomingMessage<T> {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: T;
}

export interface MessageConsumer {
  /** Stops fetching, lets the message in hand finish, commits what was handled and leaves the group. */
  stop(): Promise<void>;
}

export interface ConsumerOptions<T> {
  groupId: string;
  topic: TopicSpec<T>;
  /** Resolve to mark the message handled; throw to have it delivered again. */
  handle(message: IncomingMessage<T>): Promise<void>;
  logger: Logger;
  /** Where a group with no committed offset starts. */
  fromBeginning?: boolean;
}

const tracer = trace.getTracer('@wallet-api/core/kafka');

function headerCarrier(headers: IHeaders | undefined): Record<string, string> {
  const carrier: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) carrier[name] = first.toString();
  }
  return carrier;
}

/**
 * At-least-once consumer: an offset is committed only after its message was handled, so a crash
 * re-delivers instead of losing; handlers are written to be idempotent for that reason.
 * Offsets are committed once per fetched batch, and on stop for the part of a batch already done.
 */
export async function startConsumer<T>(kafka: Kafka, options: ConsumerOptions<T>): Promise<MessageConsumer> {
  const { topic, handle, logger } = options;
  const consumer: Consumer = kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: false });
  await consumer.connect();
  await consumer.subscribe({ topic: topic.name, fromBeginning: options.fromBeginning ?? true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      let handledUpTo: string | undefined;
      try {
        for (const message of batch.messages) {
          if (!isRunning() || isStale()) break;
          const parent = extractTraceContext(headerCarrier(message.headers));
          await context.with(parent, () =>
            tracer.startActiveSpan(`${topic.name} process`, { kind: SpanKind.CONSUMER }, async (span) => {
              try {
                await handle({
                  topic: batch.topic,
                  partition: batch.partition,
                  offset: message.offset,
                  key: message.key?.toString() ?? null,
                  value: topic.codec.decode(message.value ?? new Uint8Array()),
                });
              } catch (error) {
                span.recordException(error as Error);
                span.setStatus({ code: SpanStatusCode.ERROR });
                throw error;
              } finally {
                span.end();
              }
            }),
          );
          resolveOffset(message.offset);
          handledUpTo = message.offset;
          await heartbeat();
        }
      } finally {
        if (handledUpTo !== undefined) {
          await consumer.commitOffsets([
            { topic: batch.topic, partition: batch.partition, offset: (BigInt(handledUpTo) + 1n).toString() },
          ]);
        }
      }
    },
  });
  consumer.on(consumer.events.CRASH, (event) => {
    logger.error({ err: event.payload.error, groupId: options.groupId, restart: event.payload.restart }, 'Kafka consumer crashed');
  });
  return {
    async stop() {
      await consumer.stop();
      await consumer.disconnect();
    },
  };
}
