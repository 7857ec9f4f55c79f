import type { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';
import { BalanceChange, ChainBlock, ChainRollback, PoolEvent, WalletTransaction } from '../proto/events.js';

/** How a message type is turned into Kafka bytes; ts-proto's generated MessageFns fit it. */
export interface MessageCodec<T> {
  encode(message: T, writer?: BinaryWriter): BinaryWriter;
  decode(input: BinaryReader | Uint8Array, length?: number): T;
}

export interface TopicSpec<T> {
  name: string;
  partitions: number;
  retentionMs: number;
  /** What the message key is; chosen so that messages that must stay ordered share a partition. */
  keyedBy: string;
  codec: MessageCodec<T>;
}

const day = 24 * 60 * 60 * 1000;

/** Every topic the platform uses. The infrastructure scripts create exactly these. */
export const topics = {
  chainBlocks: {
    name: 'chain.blocks.v1',
    partitions: 3,
    retentionMs: 7 * day,
    keyedBy: 'chain id',
    codec: ChainBlock,
  } satisfies TopicSpec<ChainBlock>,
  chainRollbacks: {
    name: 'chain.rollbacks.v1',
    partitions: 3,
    retentionMs: 30 * day,
    keyedBy: 'chain id',
    codec: ChainRollback,
  } satisfies TopicSpec<ChainRollback>,
  walletTransactions: {
    name: 'chain.transactions.v1',
    partitions: 3,
    retentionMs: 7 * day,
    // A transaction belongs to several wallets; one chain's stream in block order keeps every one
    // of its wallets' transactions in order too.
    keyedBy: 'chain id',
    codec: WalletTransaction,
  } satisfies TopicSpec<WalletTransaction>,
  balanceChanges: {
    name: 'chain.balance-changes.v1',
    partitions: 6,
    retentionMs: 7 * day,
    keyedBy: 'chain id and wallet address (`<chain>:<address>`)',
    codec: BalanceChange,
  } satisfies TopicSpec<BalanceChange>,
  poolEvents: {
    name: 'chain.pool-events.v1',
    partitions: 3,
    retentionMs: 7 * day,
    // Prices are folded from one chain's pool states in block order.
    keyedBy: 'chain id',
    codec: PoolEvent,
  } satisfies TopicSpec<PoolEvent>,
} as const;

export const allTopics: readonly TopicSpec<unknown>[] = Object.values(topics) as TopicSpec<unknown>[];
