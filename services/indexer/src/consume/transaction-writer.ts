import type { ChangeVersions } from '@wallet-api/core/cache';
import type { ClickHouse } from '@wallet-api/core/clickhouse';
import {
  createConsumerSet,
  startAccumulatingConsumer,
  startConsumer,
  topics as platformTopics,
  type createKafka,
  type TopicSpec,
} from '@wallet-api/core/kafka';
import type { Logger } from '@wallet-api/core/logger';
import type { BalanceChange, ChainBlock, ChainRollback, WalletTransaction } from '@wallet-api/core/proto/events';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory } from '../reference/token-directory.js';
import { createWalletTracking } from '@wallet-api/core/reference-data';
import { transactionTokens } from '@wallet-api/core/transactions';
import { createHistoryMemory, type HistoryMemory } from '../store/history-memory.js';
import { createWalletHistoryStore } from '../store/wallet-history-store.js';
import { walletRows } from './wallet-rows.js';

export interface WriterTopics {
  walletTransactions: TopicSpec<WalletTransaction>;
  balanceChanges: TopicSpec<BalanceChange>;
  chainBlocks: TopicSpec<ChainBlock>;
  chainRollbacks: TopicSpec<ChainRollback>;
}

export interface TransactionWriterOptions {
  kafka: ReturnType<typeof createKafka>;
  clickhouse: ClickHouse;
  referenceData: ReferenceDataClient;
  /** Marks the wallets whose transactions were stored (everything, after a rollback), before offsets are committed. */
  versions: ChangeVersions;
  /** What it writes is kept there for the process's readers until stored; without one, rows are stored as they come. */
  memory?: HistoryMemory;
  logger: Logger;
  /** Prefix of the consumer groups, one per topic. */
  groupId?: string;
  /** Tests read their own topics. */
  topics?: WriterTopics;
}

export interface TransactionWriter {
  start(): Promise<void>;
  /** Stops every consumer, committing what each has handled. */
  stop(): Promise<void>;
}

/**
 * Consumes the chain topics into ClickHouse: wallet transaction rows, balance changes, and block
 * canonicality. Each topic has its own consumer group, so a slow topic never holds another back;
 * results do not depend on the order the topics are read in (see block_states). The transactions
 * group handles what every chain sent within a second (or 50,000 messages) at once and hands the
 * rows to HistoryMemory, readable at once and stored in one INSERT per `storeEveryMs`; offsets
 * are committed once they are stored. The balance-change and block groups insert as rarely:
 * ClickHouse makes a part per INSERT and merges parts again and again, so one insert per block and
 * table kept it busy merging while the chains were idle. Rollbacks, rare, are stored as they come.
 */
export function createTransactionWriter(options: TransactionWriterOptions): TransactionWriter {
  const { kafka, logger, versions } = options;
  const topics = options.topics ?? platformTopics;
  const groupId = options.groupId ?? 'indexer.wallet-history';
  const memory = options.memory ?? createHistoryMemory({ clickhouse: options.clickhouse, logger, storeEveryMs: 0 });
  const store = createWalletHistoryStore(options.clickhouse, memory);
  const tokens = createTokenDirectory(options.referenceData);
  const tracking = createWalletTracking(options.referenceData);

  return createConsumerSet(
    () => [
      startAccumulatingConsumer(kafka, {
        groupId: `${groupId}.transactions`,
        topic: topics.walletTransactions,
        logger,
        async handleBatch(messages) {
          const transactions = messages.map((message) => message.value);
          const facts = await tokens.load(transactions.flatMap(transactionTokens));
          const withRows = transactions.map((transaction) => ({ transaction, rows: walletRows(transaction, facts) }));
          // Rows only for the wallets the API serves: the pools, tokens and routers a trade passes
          // through are in most transactions, and every wallet endpoint answers 400 for them.
          const tracked = await tracking.tracked(
            withRows.flatMap(({ transaction, rows }) => rows.map((row) => ({ chainId: transaction.chainId, address: row.address }))),
          );
          const batch = withRows.map(({ transaction, rows }) => ({
            transaction,
            rows: rows.filter((row) => tracked.has(`${transaction.chainId}:${row.address}`)),
          }));
          const accepted = await store.writeTransactions(batch);
          // Readable now (from memory until stored): answers cached before them are stale.
          await versions.walletsChanged(
            batch.flatMap(({ rows }) => rows.map((row) => row.address)),
            'history',
          );
          return accepted;
        },
      }),
      startAccumulatingConsumer(kafka, {
        groupId: `${groupId}.balance-changes`,
        topic: topics.balanceChanges,
        logger,
        // No answer reads these within seconds (charts and PnL work on hours and days), and
        // ClickHouse 18.16 rewrites the partition's youngest part with every few new parts:
        // they wait as long as transaction rows may, and at least ten seconds.
        maxDelayMs: Math.max(10_000, memory.storeEveryMs),
        async handleBatch(messages) {
          await store.writeBalanceChanges(messages.map((message) => message.value));
        },
      }),
      startAccumulatingConsumer(kafka, {
        groupId: `${groupId}.blocks`,
        topic: topics.chainBlocks,
        logger,
        // Readers only exclude orphaned hashes, so a block's row matters only where a rollback
        // named the block too: those rows are stored at once (recordBlocks, recordRollbacks), the
        // others with the next INSERT of HistoryMemory. Ten seconds here bound the revival check's reads.
        maxDelayMs: 10_000,
        async handleBatch(messages) {
          const { revived, durable } = await store.recordBlocks(messages.map((message) => message.value));
          // A block that a rollback orphaned and a newer ChainBlock revives shows its transactions again.
          if (revived) await versions.everythingChanged();
          return { durable };
        },
      }),
      // Rollbacks are rare and hide data at once: each fetch is handled as it arrives, and the
      // broker holds an idle fetch for its full wait instead of answering twice a second.
      startConsumer(kafka, {
        groupId: `${groupId}.rollbacks`,
        topic: topics.chainRollbacks,
        logger,
        async handleBatch(messages) {
          await store.recordRollbacks(messages.map((message) => message.value));
          await versions.everythingChanged();
        },
      }),
    ],
    {
      async beforeStop() {
        // What waits in memory is stored now, so the consumers' last commits do not wait for its delay.
        await memory.rows.close().catch((error) => logger.error({ err: error }, 'storing the waiting transaction rows failed; they are read again from Kafka'));
      },
    },
  );
}
