import { topics, type MessageProducer, type TopicSpec } from '@wallet-api/core/kafka';
import type { BalanceChange, ChainBlock, ChainRollback, PoolEvent, WalletTransaction } from '@wallet-api/core/proto/events';
import type { Hash } from 'viem';

export interface DecodedBlock {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  timestamp: bigint;
  transactions: WalletTransaction[];
  balanceChanges: BalanceChange[];
  poolEvents: PoolEvent[];
}

export interface Rollback {
  commonAncestor: { number: bigint; hash: Hash };
  orphaned: readonly { number: bigint; hash: Hash }[];
}

export interface BlockPublisher {
  /**
   * Publishes the blocks in order and resolves once Kafka acknowledged all of it. Transactions,
   * balance changes and pool events go first, the blocks' own messages last, so a consumer that
   * sees a block message has already been offered everything derived from it.
   */
  publishBlocks(blocks: readonly (DecodedBlock & { sequence: bigint })[]): Promise<void>;
  publishRollback(rollback: Rollback & { sequence: bigint }): Promise<void>;
}

export interface PublisherTopics {
  walletTransactions: TopicSpec<WalletTransaction>;
  balanceChanges: TopicSpec<BalanceChange>;
  poolEvents: TopicSpec<PoolEvent>;
  chainBlocks: TopicSpec<ChainBlock>;
  chainRollbacks: TopicSpec<ChainRollback>;
}

/** `topicSet` defaults to the platform's topics; tests pass topics of their own. */
export function createBlockPublisher(producer: MessageProducer, chainId: string, topicSet: PublisherTopics = topics): BlockPublisher {
  return {
    async publishBlocks(blocks) {
      const transactions = blocks.flatMap((block) => block.transactions);
      const balanceChanges = blocks.flatMap((block) => block.balanceChanges);
      const poolEvents = blocks.flatMap((block) => block.poolEvents);
      await Promise.all([
        producer.send(
          topicSet.walletTransactions,
          transactions.map((value) => ({ key: chainId, value })),
        ),
        producer.send(
          topicSet.balanceChanges,
          balanceChanges.map((value) => ({ key: `${chainId}:${value.wallet}`, value })),
        ),
        producer.send(
          topicSet.poolEvents,
          poolEvents.map((value) => ({ key: chainId, value })),
        ),
      ]);
      await producer.send(
        topicSet.chainBlocks,
        blocks.map((block): { key: string; value: ChainBlock } => ({
          key: chainId,
          value: {
            chainId,
            number: block.number.toString(),
            hash: block.hash,
            parentHash: block.parentHash,
            timestamp: block.timestamp.toString(),
            sequence: block.sequence.toString(),
            transactionCount: block.transactions.length,
          },
        })),
      );
    },
    async publishRollback(rollback) {
      const value: ChainRollback = {
        chainId,
        commonAncestorNumber: rollback.commonAncestor.number.toString(),
        commonAncestorHash: rollback.commonAncestor.hash,
        orphanedBlockHashes: rollback.orphaned.map((block) => block.hash),
        orphanedBlockNumbers: rollback.orphaned.map((block) => block.number.toString()),
        sequence: rollback.sequence.toString(),
      };
      await producer.send(topicSet.chainRollbacks, [{ key: chainId, value }]);
    },
  };
}
