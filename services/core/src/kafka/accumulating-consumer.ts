import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Consumer, IHeaders, Kafka } from 'kafkajs';
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

export interface AccumulatingConsumerOptions<T> {
  groupId: string;
  topic: TopicSpec<T>;
  logger: Logger;
  /** Where a group with no committed offset starts. */
  fromBeginning?: boolean;
  /**
   * Everything accumulated since the last call, across partitions, each partition's messages in
   * order. Resolve once they are stored: only then are their offsets committed. Throw to have
   * them handed over again (with whatever arrived meanwhile) at the next flush. A handler that
   * makes them readable now but stores them later (createWriteBehind) resolves with `durable`:
   * the offsets are committed once that resolves, and never if it rejects.
   */
  handleBatch(messages: IncomingMessage<T>[]): Promise<void | { durable: Promise<void> }>;
  /** A flush starts as soon as this many messages wait. */
  maxMessages?: number;
  /** ... or when the oldest waiting message has waited this long. */
  maxDelayMs?: number;
}

interface Waiting<T> {
  message: IncomingMessage<T>;
  headers: IHeaders | undefined;
}

const tracer = trace.getTracer('@wallet-api/core/kafka');

/**
 * A consumer for stores that want few, large writes (ClickHouse makes a part per INSERT and
 * merges them all again later): it keeps fetching while messages wait, and hands them to the
 * handler together, at most every `maxDelayMs` or at `maxMessages`, whichever comes first.
 *
 * At least once, like `startConsumer`: offsets are committed only after the handler stored what
 * they cover, so a crash re-delivers what was waiting, never loses it. Duplicates can reach the
 * handler (a crash after the store but before the commit, or a partition moving to another
 * member while this one still flushes it), so the store must fold them (ReplacingMergeTree keys).
 * Messages fetched again after this member rejoins the group are recognised by offset and not
 * handed over twice by this member.
 */
export async function startAccumulatingConsumer<T>(kafka: Kafka, options: AccumulatingConsumerOptions<T>): Promise<MessageConsumer> {
  const { topic, logger } = options;
  const maxMessages = options.maxMessages ?? 50_000;
  const maxDelayMs = options.maxDelayMs ?? 1_000;
  const consumer: Consumer = kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
    // The broker holds a fetch until 64 KiB wait or half the delay has passed (at most 2 s: a stop
    // waits for the fetch in flight), rather than answering as soon as one message is there: at a
    // block a second, two fetches per group and second at the 1 s delay and one every 2 s at longer
    // delays, instead of one per message, for the broker and for this process.
    minBytes: 64 * 1024,
    maxWaitTimeInMs: Math.max(1, Math.min(2_000, Math.floor(maxDelayMs / 2))),
  });
  const reporting = consumerReporting(consumer, options.groupId, topic.name);

  let waiting: Waiting<T>[] = [];
  /** Per partition, the newest offset taken in (waiting or already handled). */
  const takenUpTo = new Map<number, bigint>();
  const highWatermarks = new Map<number, string>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  /** Commits in flush order, each after its flush's rows are durable. */
  let committing: Promise<void> = Promise.resolve();
  let commitsHalted = false;
  let stopped = false;

  async function commit(handled: Map<number, { last: string }>): Promise<void> {
    try {
      await consumer.commitOffsets([...handled].map(([partition, { last }]) => ({ topic: topic.name, partition, offset: (BigInt(last) + 1n).toString() })));
    } catch (error) {
      // What was handled is stored; a later commit covers it, or it is handed over again and folded.
      logger.warn({ err: error, groupId: options.groupId }, 'committing offsets after a flush failed');
    }
  }

  async function handleWaiting(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const taken = waiting;
    if (taken.length === 0) return;
    // What arrives while the handler runs waits in a new list, for the next flush.
    waiting = [];
    const parent = extractTraceContext(headerCarrier(taken[0]!.headers));
    const outcome = await context.with(parent, () =>
      tracer.startActiveSpan(
        `${topic.name} process`,
        { kind: SpanKind.CONSUMER, attributes: { 'messaging.batch.message_count': taken.length } },
        async (span) => {
          try {
            return await options.handleBatch(taken.map(({ message }) => message));
          } catch (error) {
            waiting = [...taken, ...waiting];
            span.recordException(error as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        },
      ),
    );
    const handled = new Map<number, { last: string; count: number }>();
    for (const { message } of taken) handled.set(message.partition, { last: message.offset, count: (handled.get(message.partition)?.count ?? 0) + 1 });
    for (const [partition, { last, count }] of handled) reporting.handled(partition, count, last, highWatermarks.get(partition) ?? last);
    const durable = outcome ? outcome.durable : Promise.resolve();
    // Its rejection is handled in the commit chain, possibly after other commits are awaited.
    durable.catch(() => undefined);
    committing = committing.then(async () => {
      try {
        await durable;
      } catch (error) {
        // Not stored: nothing after it may be committed either, so a restart hands it over again.
        commitsHalted = true;
        logger.error({ err: error, groupId: options.groupId }, 'handled messages were never stored; offsets stay uncommitted from here on');
      }
      if (!commitsHalted) await commit(handled);
    });
    if (!outcome) await committing;
    // Messages that arrived while the handler ran may be the last for a while: their delay runs now.
    schedule();
  }

  /** One flush at a time; a failed one leaves its messages waiting and tries again after the delay. */
  function flush(): Promise<void> {
    const run = flushing.then(handleWaiting);
    flushing = run.catch((error) => {
      logger.error({ err: error, groupId: options.groupId, waiting: waiting.length }, 'handling accumulated messages failed; retrying');
      schedule();
    });
    return run;
  }

  function schedule(): void {
    if (timer || stopped || waiting.length === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush().catch(() => undefined);
    }, maxDelayMs);
  }

  const run = () =>
    runWithManualCommits(consumer, topic.name, options.fromBeginning ?? true, async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      highWatermarks.set(batch.partition, batch.highWatermark);
      for (const message of batch.messages) {
        if (!isRunning() || isStale()) break;
        const offset = BigInt(message.offset);
        const taken = takenUpTo.get(batch.partition);
        // Resolving moves the fetch position on; the commit waits for the flush.
        resolveOffset(message.offset);
        if (taken !== undefined && offset <= taken) continue;
        takenUpTo.set(batch.partition, offset);
        waiting.push({ headers: message.headers, message: incomingMessage(topic, batch, message) });
        // A full buffer is handled before more is fetched: memory stays bounded.
        if (waiting.length >= maxMessages) await flush();
      }
      schedule();
      await heartbeat();
    });
  await run();
  restartAfterCrashes(consumer, { logger, groupId: options.groupId, run, stopped: () => stopped });
  return {
    async stop() {
      stopped = true;
      // Handled and committed while still a member; what arrives after is another member's to read.
      // A consumer that crashed and waits to start again fetches nothing and cannot be paused.
      try {
        consumer.pause([{ topic: topic.name }]);
      } catch {}
      await flush().catch(() => undefined);
      clearTimeout(timer);
      await committing;
      await consumer.stop();
      await consumer.disconnect();
    },
  };
}
