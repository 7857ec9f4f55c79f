import type { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';
import { BalanceChange, ChainBlock, ChainRollback, PoolEvent, WalletTransaction } from '../generated/proto/events.js';

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

/** The platform's topics, under whatever names a deployment gives them. */
export type PlatformTopics = { readonly [K in keyof typeof topics]: Omit<(typeof topics)[K], 'name'> & { name: string } };

/**
 * The platform's topics as `<name>.<suffix>` (KAFKA_TOPIC_SUFFIX): several deployments, or a test
 * run beside a development stack, on one cluster without reading each other's messages.
 */
export function platformTopics(suffix: string | undefined): PlatformTopics {
  if (!suffix) return topics;
  return Object.fromEntries(Object.entries(topics).map(([key, spec]) => [key, { ...spec, name: `${spec.name}.${suffix}` }])) as unknown as PlatformTopics;
}

/**
 * A consumer group's name under the same suffix: a group is one set of members, and members of
 * two deployments subscribing to differently named topics under one group id would be handed
 * each other's partitions.
 */
export function consumerGroup(name: string, suffix: string | undefined): string {
  return suffix ? `${name}.${suffix}` : name;
}
