import { Prisma, type PrismaClient } from '@wallet-api/core/db';
import type { Page } from './subscription-store.js';

export interface DeliveryAttemptEntry {
  number: number;
  startedAt: Date;
  /** 0 when no HTTP answer came. */
  statusCode: number;
  latencyMs: number;
  /** Empty on success. */
  error: string;
}

/** One outbox row as the delivery log shows it (the body is not shown). */
export interface DeliveryLogEntry {
  id: string;
  subscriptionId: string;
  address: string;
  chainId: string;
  transactionHash: string;
  blockNumber: bigint;
  deleted: boolean;
  /** `pending`, `delivered` or `failed`. */
  status: string;
  attemptCount: number;
  createdAt: Date;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  /** In attempt order. */
  attempts: DeliveryAttemptEntry[];
}

/** A place in the log's (created_at, id) order. */
export interface DeliveryKey {
  createdAt: Date;
  id: string;
}

export interface DeliveryLogStore {
  /** The subscription's deliveries newest first, before `before`, each with its attempts. */
  list(subscriptionId: string, options: { before?: DeliveryKey; limit: number }): Promise<Page<DeliveryLogEntry, DeliveryKey>>;
  /**
   * Makes the delivery due now whatever its state (pending, no lease, not delivered), keeping its
   * id, body and attempts; `null` when it is not the subscription's.
   */
  retry(subscriptionId: string, deliveryId: string): Promise<DeliveryLogEntry | null>;
}

interface DeliveryRow {
  id: string;
  subscription_id: string;
  address: string;
  chain_id: string;
  transaction_hash: string;
  block_number: bigint;
  deleted: boolean;
  status: string;
  attempt_count: number;
  created_at: Date;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

interface AttemptRow {
  delivery_id: string;
  number: number;
  started_at: Date;
  status_code: number;
  latency_ms: number;
  error: string;
}

const deliveryColumns = Prisma.sql`id, subscription_id, address, chain_id, transaction_hash, block_number, deleted, status, attempt_count, created_at, next_attempt_at, delivered_at`;

export function createDeliveryLogStore(prisma: PrismaClient): DeliveryLogStore {
  /** The rows with their attempts, read in one query for all of them. */
  async function withAttempts(rows: readonly DeliveryRow[]): Promise<DeliveryLogEntry[]> {
    const attempts = new Map<string, DeliveryAttemptEntry[]>();
    if (rows.length > 0) {
      const attemptRows = await prisma.$queryRaw<AttemptRow[]>`
        SELECT delivery_id, number, started_at, status_code, latency_ms, error FROM webhook_delivery_attempts
        WHERE delivery_id = ANY(${rows.map((row) => row.id)}::text[])
        ORDER BY delivery_id, number`;
      for (const row of attemptRows) {
        const list = attempts.get(row.delivery_id) ?? [];
        list.push({ number: row.number, startedAt: row.started_at, statusCode: row.status_code, latencyMs: row.latency_ms, error: row.error });
        attempts.set(row.delivery_id, list);
      }
    }
    return rows.map((row) => ({
      id: row.id,
      subscriptionId: row.subscription_id,
      address: row.address,
      chainId: row.chain_id,
      transactionHash: row.transaction_hash,
      blockNumber: BigInt(row.block_number),
      deleted: row.deleted,
      status: row.status,
      attemptCount: row.attempt_count,
      createdAt: row.created_at,
      nextAttemptAt: row.next_attempt_at,
      deliveredAt: row.delivered_at,
      attempts: attempts.get(row.id) ?? [],
    }));
  }

  return {
    async list(subscriptionId, { before, limit }) {
      const rows = await prisma.$queryRaw<DeliveryRow[]>`
        SELECT ${deliveryColumns} FROM webhook_deliveries
        WHERE subscription_id = ${subscriptionId}
          ${before ? Prisma.sql`AND (created_at, id) < (${before.createdAt}::timestamptz, ${before.id})` : Prisma.empty}
        ORDER BY created_at DESC, id DESC
        LIMIT ${limit + 1}`;
      const items = await withAttempts(rows.slice(0, limit));
      const last = items[items.length - 1];
      return rows.length > limit && last ? { items, next: { createdAt: last.createdAt, id: last.id } } : { items };
    },

    async retry(subscriptionId, deliveryId) {
      const rows = await prisma.$queryRaw<DeliveryRow[]>`
        UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), lease_until = NULL, delivered_at = NULL
        WHERE id = ${deliveryId} AND subscription_id = ${subscriptionId}
        RETURNING ${deliveryColumns}`;
      const [entry] = await withAttempts(rows);
      return entry ?? null;
    },
  };
}
