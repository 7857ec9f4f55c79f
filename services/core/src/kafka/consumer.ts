import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { extractTraceContext } from '../telemetry/index.js';
import {
  consumerReporting,
  headerCarrier,
  incomingMessage,
  restartAfterCrashes,
  runWithManualCommits,
  type IncomingMessage,
  type MessageConsumer,
} from './consumer-common.js';
import type { TopicSpec } from './topics.js';

interface ConsumerCommon<T> {
  groupId: string;
  topic: TopicSpec<T>;
  logger: Logger;
  /** Where a group with no committed offset starts. */
  fromBeginning?: boolean;
}

export type ConsumerOptions<T> = ConsumerCommon<T> &
  (
    | {
        /** Resolve to mark the message handled; throw to have it delivered again. */
        handle(message: IncomingMessage<T>): Promise<void>;
        handleBatch?: never;
      }
    | {
        /**
         * Messages of one partition, in order, handled together (one store round trip instead of
         * one per message). Resolve to mark them all handled; throw to have them all delivered again.
         */
        handleBatch(messages: IncomingMessage<T>[]): Promise<void>;
        handle?: never;
        /** Most messages per call. */
        maxBatchSize?: number;
      }
  );

const tracer = trace.getTracer('@wallet-api/core/kafka');

/**
 * At-least-once consumer: an offset is committed only after its message was handled, so a crash
 * re-delivers instead of losing; handlers are written to be idempotent for that reason.
 * Offsets are committed once per fetched batch, and on stop for the part of a batch already done.
 */
export async function startConsumer<T>(kafka: Kafka, options: ConsumerOptions<T>): Promise<MessageConsumer> {
  const { topic, logger } = options;
  const handleChunk: (messages: IncomingMessage<T>[]) => Promise<void> = options.handleBatch
    ? options.handleBatch
    : async ([message]) => options.handle!(message!);
  const chunkSize = options.handleBatch ? (options.maxBatchSize ?? 500) : 1;
  const consumer: Consumer = kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: false });
  const reporting = consumerReporting(consumer, options.groupId, topic.name);
  let stopped = false;
  const run = () =>
    runWithManualCommits(consumer, topic.name, options.fromBeginning ?? true, async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      let handledUpTo: string | undefined;
      try {
        for (let start = 0; start < batch.messages.length; start += chunkSize) {
          if (!isRunning() || isStale()) break;
          const chunk = batch.messages.slice(start, start + chunkSize);
          // A chunk is traced under the context its first message carried.
          const parent = extractTraceContext(headerCarrier(chunk[0]!.headers));
          await context.with(parent, () =>
            tracer.startActiveSpan(
              `${topic.name} process`,
              { kind: SpanKind.CONSUMER, attributes: { 'messaging.batch.message_count': chunk.length } },
              async (span) => {
                try {
                  await handleChunk(chunk.map((message) => incomingMessage(topic, batch, message)));
                } catch (error) {
                  span.recordException(error as Error);
                  span.setStatus({ code: SpanStatusCode.ERROR });
                  throw error;
                } finally {
                  span.end();
                }
              },
            ),
          );
          const last = chunk.at(-1)!.offset;
          resolveOffset(last);
          handledUpTo = last;
          reporting.handled(batch.partition, chunk.length, last, batch.highWatermark);
          await heartbeat();
        }
      } finally {
        if (handledUpTo !== undefined) {
          await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(handledUpTo) + 1n).toString() }]);
        }
      }
    });
  await run();
  restartAfterCrashes(consumer, { logger, groupId: options.groupId, run, stopped: () => stopped });
  return {
    async stop() {
      stopped = true;
      await consumer.stop();
      await consumer.disconnect();
    },
  };
}
