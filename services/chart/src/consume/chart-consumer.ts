import type { ChangeVersions } from '@wallet-api/core/cache';
import {
  createConsumerSet,
  startAccumulatingConsumer,
  startConsumer,
  topics as platformTopics,
  type createKafka,
  type TopicSpec,
} from '@wallet-api/core/kafka';
import type { Logger } from '@wallet-api/core/logger';
import { AssetKind, type BalanceChange, type ChainBlock, type ChainRollback } from '@wallet-api/core/proto/events';
import type { WalletTracking } from '@wallet-api/core/reference-data';
import { toBalanceChangeRow, type BalanceChangeRow } from '../store/balance-change-rows.js';
import { toChainBlockRow, type BlockClock } from '../store/block-clock.js';
import type { ChartStore } from '../store/chart-store.js';

export interface ChartConsumerTopics {
  balanceChanges: TopicSpec<BalanceChange>;
  chainRollbacks: TopicSpec<ChainRollback>;
  chainBlocks: TopicSpec<ChainBlock>;
}

export interface ChartConsumerOptions {
  kafka: ReturnType<typeof createKafka>;
  store: ChartStore;
  /** Block headers, for the block each point of a protocol chart stands at. */
  clock: BlockClock;
  /** Which wallets the API serves: the others' changes (pools, routers) are never charted. */
  tracking: WalletTracking;
  /** Charted wallets are marked once their changes are readable (rollbacks: everything), before offsets are committed. */
  versions: ChangeVersions;
  logger: Logger;
  /** Prefix of the consumer groups, one per topic. */
  groupId?: string;
  /** Tests read their own topics. */
  topics?: ChartConsumerTopics;
  /** Balance changes handed over together at most this often (ms). */
  maxDelayMs?: number;
}

export interface ChartConsumer {
  start(): Promise<void>;
  /** Stores what waits and stops both consumers, committing what each has handled. */
  stop(): Promise<void>;
}

/**
 * Balance changes into the chart store, block headers into the block clock, and rollbacks into block_states. A chart read leaves out
 * orphaned blocks' rows wherever they are (waiting or stored), so the two topics need no order
 * between them; a block revived after a rollback counts again once the indexer's newer
 * block_states row says so.
 */
export function createChartConsumer(options: ChartConsumerOptions): ChartConsumer {
  const { kafka, store, clock, tracking, versions, logger } = options;
  const topics = options.topics ?? platformTopics;
  const groupId = options.groupId ?? 'chart';

  async function chartRows(changes: readonly BalanceChange[]): Promise<BalanceChangeRow[]> {
    const rows: BalanceChangeRow[] = [];
    for (const change of changes) {
      const row = toBalanceChangeRow(change);
      if (row) rows.push(row);
      else if (change.asset?.kind === AssetKind.ASSET_KIND_NATIVE || change.asset?.kind === AssetKind.ASSET_KIND_ERC20) {
        logger.warn(
          { chainId: change.chainId, wallet: change.wallet, transaction: change.transactionHash, amount: change.amount },
          'a fungible balance change beyond 256 bits is not charted',
        );
      }
    }
    const tracked = await tracking.tracked(rows.map((row) => ({ chainId: row.chain_id, address: row.address })));
    return rows.filter((row) => tracked.has(`${row.chain_id}:${row.address}`));
  }

  return createConsumerSet(
    () => [
      startAccumulatingConsumer(kafka, {
        groupId: `${groupId}.balance-changes`,
        topic: topics.balanceChanges,
        logger,
        fromBeginning: true,
        maxDelayMs: options.maxDelayMs ?? 1_000,
        async handleBatch(messages) {
          const rows = await chartRows(messages.map((message) => message.value));
          const { durable } = await store.add(rows);
          if (rows.length > 0) await versions.walletsChanged(new Set(rows.map((row) => row.address)), 'charts');
          return { durable };
        },
      }),
      startAccumulatingConsumer(kafka, {
        groupId: `${groupId}.blocks`,
        topic: topics.chainBlocks,
        logger,
        fromBeginning: true,
        maxDelayMs: options.maxDelayMs ?? 1_000,
        handleBatch: (messages) => clock.add(messages.map((message) => toChainBlockRow(message.value))),
      }),
      startConsumer(kafka, {
        groupId: `${groupId}.rollbacks`,
        topic: topics.chainRollbacks,
        logger,
        fromBeginning: true,
        async handleBatch(messages) {
          for (const message of messages) await store.recordRollback(message.value);
          await versions.everythingChanged();
        },
      }),
    ],
    {
      async beforeStop() {
        await store
          .close()
          .catch((error: unknown) => logger.error({ err: error }, 'storing the waiting balance changes failed; they are read again from Kafka'));
        await clock.close().catch((error: unknown) => logger.error({ err: error }, 'storing the waiting block headers failed; they are read again from Kafka'));
      },
    },
  );
}
