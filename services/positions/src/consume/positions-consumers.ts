import { canonicalWallet } from '@wallet-api/core/addresses';
import {
  createConsumerSet,
  startAccumulatingConsumer,
  startConsumer,
  topics as platformTopics,
  type createKafka,
  type TopicSpec,
} from '@wallet-api/core/kafka';
import type { ChangeVersions } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import { AssetKind, type BalanceChange, type ChainBlock, type ChainRollback, type PoolEvent, type WalletTransaction } from '@wallet-api/core/proto/events';
import type { BalanceLedger } from '../balances/balance-ledger.js';
import type { PositionsMetrics } from '../metrics/positions-metrics.js';
import type { ProtocolDirectory } from '../protocols/protocol-directory.js';
import type { BalanceEntry } from '../store/balance-store.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { ProtocolHoldingsSource } from '../protocols/protocol-holdings.js';
import { protocolTouches } from './protocol-touches.js';

export interface PositionsTopics {
  balanceChanges: TopicSpec<BalanceChange>;
  chainBlocks: TopicSpec<ChainBlock>;
  chainRollbacks: TopicSpec<ChainRollback>;
  walletTransactions: TopicSpec<WalletTransaction>;
  poolEvents: TopicSpec<PoolEvent>;
}

export interface PositionsConsumerOptions {
  kafka: ReturnType<typeof createKafka>;
  balances: BalanceLedger;
  snapshots: SnapshotStore;
  protocols: ProtocolDirectory;
  /** Snapshots whose pools moved, or whose wallets touched a protocol, are read again without waiting for a request. */
  refreshes: Pick<ProtocolHoldingsSource, 'refreshSoon'>;
  /** Marks the wallets whose positions changed (everything, when blocks stop or start counting), before offsets are committed. */
  versions: ChangeVersions;
  logger: Logger;
  metrics: PositionsMetrics;
  /** Prefix of the consumer groups, one per topic. */
  groupId?: string;
  /** Tests read their own topics. */
  topics?: PositionsTopics;
}

export interface PositionsConsumers {
  start(): Promise<void>;
  /** Stops every consumer, committing what each has handled. */
  stop(): Promise<void>;
}

/** Only fungible assets are positions; NFT balance changes are someone else's. */
function toEntry(change: BalanceChange): BalanceEntry | undefined {
  const kind = change.asset?.kind;
  if (kind !== AssetKind.ASSET_KIND_NATIVE && kind !== AssetKind.ASSET_KIND_ERC20) return undefined;
  return {
    chainId: change.chainId,
    blockHash: change.blockHash,
    transactionIndex: change.transactionIndex,
    // Solana wallets and mints are base58, whose case matters; EVM addresses are stored lowercase.
    wallet: canonicalWallet(change.wallet),
    asset: kind === AssetKind.ASSET_KIND_NATIVE ? '' : canonicalWallet(change.asset!.address),
    blockNumber: BigInt(change.blockNumber),
    blockTimestamp: BigInt(change.blockTimestamp),
    amount: BigInt(change.amount),
  };
}

/**
 * The four chain topics into the positions tables: balance changes into exact balances (opened
 * from the chain the first time a balance is seen), blocks and rollbacks into block canonicality
 * (which takes orphaned entries out, puts revived ones back and re-reads openings read at orphaned
 * blocks), and transactions touching protocol contracts into stale marks on the wallets' protocol
 * snapshots. Each topic has its own consumer group; the result does not depend on which topic is
 * read first (see the balance store).
 */
export function createPositionsConsumers(options: PositionsConsumerOptions): PositionsConsumers {
  const { kafka, balances, snapshots, protocols, refreshes, versions, logger, metrics } = options;
  const topics = options.topics ?? platformTopics;
  const groupId = options.groupId ?? 'positions';

  // Balance changes, blocks and transactions are applied a second's worth at a time (one
  // PostgreSQL transaction for every chain's blocks of that second rather than one per fetch);
  // rollbacks, rare and ordered, as they come.
  return createConsumerSet(() => [
    startAccumulatingConsumer(kafka, {
      groupId: `${groupId}.balance-changes`,
      topic: topics.balanceChanges,
      logger,
      async handleBatch(messages) {
        const entries: BalanceEntry[] = [];
        // The wallets as the chain spells them (entries lower-case them): change tokens keep a Solana address's case.
        const wallets: string[] = [];
        for (const { value } of messages) {
          const entry = toEntry(value);
          if (!entry) continue;
          entries.push(entry);
          wallets.push(value.wallet);
        }
        await balances.applyEntries(entries);
        await versions.walletsChanged(wallets, 'holdings');
        metrics.messages.inc({ topic: 'balance-changes' }, messages.length);
      },
    }),
    startAccumulatingConsumer(kafka, {
      groupId: `${groupId}.blocks`,
      topic: topics.chainBlocks,
      logger,
      async handleBatch(messages) {
        const { revived } = await balances.applyBlocks(
          messages.map(({ value }) => ({ chainId: value.chainId, blockHash: value.hash, orphaned: false, sequence: BigInt(value.sequence) })),
        );
        if (revived) await versions.everythingChanged();
        metrics.messages.inc({ topic: 'blocks' }, messages.length);
      },
    }),
    startConsumer(kafka, {
      groupId: `${groupId}.rollbacks`,
      topic: topics.chainRollbacks,
      logger,
      async handleBatch(messages) {
        // One at a time, in order: each re-reads the openings its blocks held at its own ancestor.
        for (const { value } of messages) {
          await balances.applyRollback({
            chainId: value.chainId,
            commonAncestor: { hash: value.commonAncestorHash, number: BigInt(value.commonAncestorNumber) },
            orphanedBlockHashes: value.orphanedBlockHashes,
            sequence: BigInt(value.sequence),
          });
          await snapshots.markReorganised(value.chainId, BigInt(value.commonAncestorNumber));
        }
        await versions.everythingChanged();
        metrics.messages.inc({ topic: 'rollbacks' }, messages.length);
      },
    }),
    startAccumulatingConsumer(kafka, {
      groupId: `${groupId}.transactions`,
      topic: topics.walletTransactions,
      logger,
      async handleBatch(messages) {
        const chainIds = [...new Set(messages.map((message) => message.value.chainId))];
        const contracts = new Map(await Promise.all(chainIds.map(async (chainId) => [chainId, (await protocols.protocols(chainId)).contracts] as const)));
        const touches = messages.flatMap(({ value }) => protocolTouches(value, contracts.get(value.chainId)!));
        const marked = await snapshots.markTouched(touches);
        await versions.walletsChanged(
          touches.map((touch) => touch.wallet),
          'holdings',
        );
        refreshes.refreshSoon(marked);
        metrics.messages.inc({ topic: 'transactions' }, messages.length);
      },
    }),
    // Every pool's swaps, mints and burns, whoever sent them: the tracked wallets with positions
    // in a moved pool hold other amounts (and fees) now, so their snapshots are read again.
    startAccumulatingConsumer(kafka, {
      groupId: `${groupId}.pool-events`,
      topic: topics.poolEvents,
      logger,
      async handleBatch(messages) {
        const marked = await snapshots.markPoolsMoved(
          messages.map(({ value }) => ({ chainId: value.chainId, pool: value.pool.toLowerCase(), blockNumber: BigInt(value.blockNumber) })),
        );
        await versions.walletsChanged(
          marked.map((snapshot) => snapshot.wallet),
          'holdings',
        );
        refreshes.refreshSoon(marked);
        metrics.messages.inc({ topic: 'pool-events' }, messages.length);
      },
    }),
  ]);
}
