import { setTimeout as sleep } from 'node:timers/promises';
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

/**
 * Logs every crash, and starts the consumer again where kafkajs will not. kafkajs restarts only
 * after errors it deems retriable; a broker outage can end in one it does not ("Failed to find
 * group coordinator", "No broker available", seen after a 30 s Kafka stop), and the consumer then
 * stayed stopped for good while the process served stale answers. `run` joins the group again
 * (as kafkajs's own restart does, from the committed offsets); `stopped` says its owner stopped it.
 */
export function restartAfterCrashes(consumer: Consumer, options: { logger: Logger; groupId: string; run: () => Promise<void>; stopped: () => boolean }): void {
  const { logger, groupId } = options;
  consumer.on(consumer.events.CRASH, (event) => {
    logger.error({ err: event.payload.error, groupId, restart: event.payload.restart }, 'Kafka consumer crashed');
    if (!event.payload.restart) void restartUntilRunning();
  });
  async function restartUntilRunning(): Promise<void> {
    for (let delayMs = 1_000; ; delayMs = Math.min(delayMs * 2, 30_000)) {
      // Unreferenced: a pending restart never keeps a stopping process alive.
      await sleep(delayMs, undefined, { ref: false });
      if (options.stopped()) return;
      try {
        await options.run();
        logger.warn({ groupId }, 'Kafka consumer started again after a crash kafkajs does not restart from');
        return;
      } catch (error) {
        logger.error({ err: error, groupId }, 'starting the crashed Kafka consumer again failed; trying later');
      }
    }
  }
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
