import {
  createConsumerSet,
  startAccumulatingConsumer,
  startConsumer,
  topics as platformTopics,
  type createKafka,
  type TopicSpec,
} from '@wallet-api/core/kafka';
import type { ChangeVersions, SharedChangeTokens } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import type { ChainRollback, PoolEvent } from '@wallet-api/core/proto/events';
import { fromPoolEvent, type ChainPoolEvent } from '../prices/chain-pool-event.js';
import type { PriceTracker } from '../prices/price-tracker.js';
import type { PriceRows } from '../store/price-rows.js';

export interface PriceConsumerTopics {
  poolEvents: TopicSpec<PoolEvent>;
  chainRollbacks: TopicSpec<ChainRollback>;
}

export interface PriceConsumerOptions {
  kafka: ReturnType<typeof createKafka>;
  tracker: PriceTracker;
  /** Every valued answer changes with prices: marked after each stored batch (rollbacks: everything), before offsets are committed. */
  versions: ChangeVersions;
  /**
   * Runs after a batch is stored and before its price move is announced, with the tokens about
   * to be in force: the price history reads what the batch added, so lookups after the move find
   * it in memory. A failure only costs those lookups the read.
   */
  prepareLookups?: (tokens: SharedChangeTokens) => Promise<void>;
  /** Where the tracker's rows wait for their INSERT: offsets are committed once they are stored. */
  rows?: Pick<PriceRows, 'settled' | 'flush' | 'close'>;
  logger: Logger;
  /** Prefix of the consumer groups, one per topic. */
  groupId?: string;
  /** Tests read their own topics. */
  topics?: PriceConsumerTopics;
}

export interface PriceConsumer {
  start(): Promise<void>;
  /** Stops both consumers, committing what each has handled. */
  stop(): Promise<void>;
}

/**
 * Pool events into prices, and rollbacks into refolds. The two topics have their own groups; the
 * tracker serializes each chain's work, and a new branch's events wait for their rollback.
 */
export function createPriceConsumer(options: PriceConsumerOptions): PriceConsumer {
  const { kafka, tracker, versions, logger } = options;
  const topics = options.topics ?? platformTopics;
  const groupId = options.groupId ?? 'reference-data.prices';

  return createConsumerSet(
    () => [
      // Five seconds' events of every chain folded together: every valued answer is computed
      // again once per five seconds at most instead of per block. Their rows wait in `rows` for
      // one INSERT per table every few minutes (ClickHouse 18.16 rewrites a partition's youngest
      // part with every few new parts), readable by the process's lookups meanwhile.
      startAccumulatingConsumer(kafka, {
        groupId: `${groupId}.pool-events`,
        topic: topics.poolEvents,
        logger,
        maxDelayMs: 5_000,
        async handleBatch(messages) {
          const events = messages.map((message) => fromPoolEvent(message.value)).filter((event): event is ChainPoolEvent => event !== undefined);
          await tracker.apply(events);
          const durable = { durable: options.rows?.settled() ?? Promise.resolve() };
          if (events.length === 0) return durable;
          const { prepareLookups } = options;
          // Readable now (from memory until stored): the move is announced at once.
          // Prices at times before the batch's first block are as they were: readers keep those.
          const since = Math.min(...events.map((event) => event.blockTimestamp));
          await versions.pricesChanged(
            prepareLookups &&
              ((tokens) =>
                prepareLookups(tokens).catch((error: unknown) =>
                  logger.warn({ err: error }, 'reading the stored prices ahead of their announcement failed; lookups will read them'),
                )),
            { since },
          );
          return durable;
        },
      }),
      startConsumer(kafka, {
        groupId: `${groupId}.rollbacks`,
        topic: topics.chainRollbacks,
        logger,
        async handleBatch(messages) {
          for (const message of messages) await tracker.rollback(message.value);
          // The refold's rewritten rows are stored before the rollback's offset is committed.
          await options.rows?.flush();
          await versions.everythingChanged();
        },
      }),
    ],
    {
      async beforeStop() {
        // What waits is stored now, so the consumers' last commits do not wait for its delay.
        await options.rows
          ?.close()
          .catch((error: unknown) => logger.error({ err: error }, 'storing the waiting price rows failed; they are read again from Kafka'));
      },
    },
  );
}
