import type { Batch, Consumer, EachBatchHandler, IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import { kafkaConsumedMessages, kafkaConsumerLag } from '../metrics/platform-metrics.js';
import type { TopicSpec } from './topics.js';

// What both consumers (startConsumer, startAccumulatingConsumer) do alike.

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

/** A fetched message decoded with its topic's codec. */
export function incomingMessage<T>(topic: TopicSpec<T>, batch: Batch, message: KafkaMessage): IncomingMessage<T> {
  return {
    topic: batch.topic,
    partition: batch.partition,
    offset: message.offset,
    key: message.key?.toString() ?? null,
    value: topic.codec.decode(message.value ?? new Uint8Array()),
  };
}

/**
 * Joins the group and runs `eachBatch` with commits in the caller's hands: nothing is committed
 * that the caller did not commit after storing it.
 */
export async function runWithManualCommits(consumer: Consumer, topic: string, fromBeginning: boolean, eachBatch: EachBatchHandler): Promise<void> {
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning });
  await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch });
}

/** kafkajs restarts a crashed consumer by itself; the crash is still worth an error line. */
export function logCrashes(consumer: Consumer, logger: Logger, groupId: string): void {
  consumer.on(consumer.events.CRASH, (event) => {
    logger.error({ err: event.payload.error, groupId, restart: event.payload.restart }, 'Kafka consumer crashed');
  });
}

/** A message's headers as the string carrier the trace propagator reads. */
export function headerCarrier(headers: IHeaders | undefined): Record<string, string> {
  const carrier: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) carrier[name] = first.toString();
  }
  return carrier;
}

export interface ConsumerReporting {
  /** Counts `count` handled messages of a partition and sets its lag from the last handled offset. */
  handled(partition: number, count: number, lastOffset: string, highWatermark: string): void;
}

/**
 * The consumed-messages counter and per-partition lag gauge of one group's member. After a
 * rebalance the member forgets the lag of partitions that are now another member's, so the gauge
 * never holds a frozen value for a partition nobody here reads.
 */
export function consumerReporting(consumer: Consumer, groupId: string, topic: string): ConsumerReporting {
  const lagReported = new Set<number>();
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    const assigned = new Set(event.payload.memberAssignment[topic] ?? []);
    for (const partition of lagReported) {
      if (assigned.has(partition)) continue;
      kafkaConsumerLag.remove({ group: groupId, topic, partition });
      lagReported.delete(partition);
    }
  });
  return {
    handled(partition, count, lastOffset, highWatermark) {
      kafkaConsumedMessages.inc({ group: groupId, topic }, count);
      lagReported.add(partition);
      kafkaConsumerLag.set({ group: groupId, topic, partition }, Math.max(0, Number(BigInt(highWatermark) - BigInt(lastOffset) - 1n)));
    },
  };
}
