import type { Prisma, PrismaClient } from '@wallet-api/core/db';

type Transaction = Prisma.TransactionClient;

/** Where a consumer group stands in one partition: the next offset to handle. */
export interface ConsumedPosition {
  groupId: string;
  topic: string;
  partition: number;
}

export interface NewDelivery {
  id: string;
  subscriptionId: string;
  address: string;
  chainId: string;
  transactionHash: string;
  blockHash: string;
  blockNumber: bigint;
  body: string;
  /** Kafka offset of the message the delivery came from: skipped when another consumer already recorded past it. */
  sourceOffset: bigint;
}

/** A delivery a dispatcher holds until its lease ends. */
export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  callbackUrl: string;
  body: string;
  attemptCount: number;
  /** Encrypted signing secrets in force now, newest first. */
  secretCiphertexts: string[];
}

export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; nextAttemptAt: Date }
  /** Retries exhausted, or the receiver answered 410 (`disableSubscription`). */
  | { kind: 'failed'; disableSubscription: boolean };

export interface AttemptRecord {
  deliveryId: string;
  subscriptionId: string;
  number: number;
  startedAt: Date;
  statusCode: number;
  latencyMs: number;
  error: string;
  outcome: AttemptOutcome;
}

export interface OutboxStore {
  /** Offsets below this were handled and their deliveries recorded. */
  nextOffset(position: ConsumedPosition): Promise<bigint>;
  /**
   * Records deliveries and the consumed position in one transaction: a crash before it commits
   * leaves both unwritten (the messages come again), after it both are there (they are skipped).
   * Answers how many deliveries were new.
   */
  recordMatches(position: ConsumedPosition, nextOffset: bigint, deliveries: readonly NewDelivery[]): Promise<number>;
  /** Which of the given blocks a rollback already orphaned. */
  orphanedBlocks(chainId: string, blockHashes: readonly string[]): Promise<Set<string>>;
  /**
   * Marks the blocks orphaned and records, for every delivery of a transaction in them to a
   * subscription still enabled, its rollback notification (`rollbackBody` of the original), with
   * the consumed position. Answers how many rollback notifications were new.
   */
  recordRollback(
    position: ConsumedPosition,
    nextOffset: bigint,
    rollback: { chainId: string; blockHashes: readonly string[] },
    rollbackOf: (original: { body: string }) => { id: string; body: string },
  ): Promise<number>;
  /** Pending deliveries that are due, of enabled subscriptions, leased to the caller for `leaseMs`. */
  claimDue(limit: number, leaseMs: number, now: Date): Promise<ClaimedDelivery[]>;
  recordAttempt(attempt: AttemptRecord): Promise<void>;
  /** Delivery ids leased but not finished, for a clean shutdown to hand them back. */
  release(deliveryIds: readonly string[]): Promise<void>;
}

async function lockPosition(tx: Transaction, position: ConsumedPosition): Promise<bigint> {
  await tx.$executeRaw`
    INSERT INTO subscription_consumer_offsets (group_id, topic, partition, next_offset)
    VALUES (${position.groupId}, ${position.topic}, ${position.partition}, 0)
    ON CONFLICT DO NOTHING`;
  const [row] = await tx.$queryRaw<{ next_offset: bigint }[]>`
    SELECT next_offset FROM subscription_consumer_offsets
    WHERE group_id = ${position.groupId} AND topic = ${position.topic} AND partition = ${position.partition}
    FOR UPDATE`;
  return row!.next_offset;
}

async function advance(tx: Transaction, position: ConsumedPosition, nextOffset: bigint): Promise<void> {
  await tx.$executeRaw`
    UPDATE subscription_consumer_offsets SET next_offset = greatest(next_offset, ${nextOffset}::bigint)
    WHERE group_id = ${position.groupId} AND topic = ${position.topic} AND partition = ${position.partition}`;
}

const transactionOptions = { timeout: 60_000, maxWait: 10_000 };

export function createOutboxStore(prisma: PrismaClient): OutboxStore {
  return {
    async nextOffset(position) {
      const [row] = await prisma.$queryRaw<{ next_offset: bigint }[]>`
        SELECT next_offset FROM subscription_consumer_offsets
        WHERE group_id = ${position.groupId} AND topic = ${position.topic} AND partition = ${position.partition}`;
      return row?.next_offset ?? 0n;
    },

    async recordMatches(position, nextOffset, deliveries) {
      return prisma.$transaction(async (tx) => {
        const recorded = await lockPosition(tx, position);
        const fresh = deliveries.filter((delivery) => delivery.sourceOffset >= recorded);
        let inserted = 0;
        if (fresh.length > 0) {
          inserted = await tx.$executeRaw`
            INSERT INTO webhook_deliveries (id, subscription_id, address, chain_id, transaction_hash, block_hash, block_number, body, next_attempt_at)
            SELECT d.*, now() FROM unnest(
              ${fresh.map((d) => d.id)}::text[], ${fresh.map((d) => d.subscriptionId)}::text[], ${fresh.map((d) => d.address)}::text[],
              ${fresh.map((d) => d.chainId)}::text[], ${fresh.map((d) => d.transactionHash)}::text[], ${fresh.map((d) => d.blockHash)}::text[],
              ${fresh.map((d) => String(d.blockNumber))}::bigint[], ${fresh.map((d) => d.body)}::text[]
            ) AS d(id, subscription_id, address, chain_id, transaction_hash, block_hash, block_number, body)
            -- a subscription deleted while its matches were rendered gets none
            WHERE EXISTS (SELECT 1 FROM tx_subscriptions s WHERE s.id = d.subscription_id)
            ON CONFLICT DO NOTHING`;
        }
        await advance(tx, position, nextOffset);
        return inserted;
      }, transactionOptions);
    },

    async orphanedBlocks(chainId, blockHashes) {
      if (blockHashes.length === 0) return new Set();
      const rows = await prisma.$queryRaw<{ block_hash: string }[]>`
        SELECT block_hash FROM subscription_orphaned_blocks WHERE chain_id = ${chainId} AND block_hash = ANY(${[...blockHashes]}::text[])`;
      return new Set(rows.map((row) => row.block_hash));
    },

    async recordRollback(position, nextOffset, rollback, rollbackOf) {
      return prisma.$transaction(async (tx) => {
        await lockPosition(tx, position);
        const hashes = [...rollback.blockHashes];
        await tx.$executeRaw`
          INSERT INTO subscription_orphaned_blocks (chain_id, block_hash)
          SELECT ${rollback.chainId}, h FROM unnest(${hashes}::text[]) AS h
          ON CONFLICT DO NOTHING`;
        const originals = await tx.$queryRaw<
          { subscription_id: string; address: string; transaction_hash: string; block_hash: string; block_number: bigint; body: string }[]
        >`
          SELECT d.subscription_id, d.address, d.transaction_hash, d.block_hash, d.block_number, d.body
          FROM webhook_deliveries d JOIN tx_subscriptions s ON s.id = d.subscription_id
          WHERE d.chain_id = ${rollback.chainId} AND d.block_hash = ANY(${hashes}::text[]) AND NOT d.deleted AND s.enabled
          ORDER BY d.block_number, d.created_at`;
        let inserted = 0;
        if (originals.length > 0) {
          const copies = originals.map((original) => ({ ...original, ...rollbackOf(original) }));
          inserted = await tx.$executeRaw`
            INSERT INTO webhook_deliveries (id, subscription_id, address, chain_id, transaction_hash, block_hash, block_number, deleted, body, next_attempt_at)
            SELECT c.id, c.subscription_id, c.address, ${rollback.chainId}, c.transaction_hash, c.block_hash, c.block_number, true, c.body, now()
            FROM unnest(
              ${copies.map((c) => c.id)}::text[], ${copies.map((c) => c.subscription_id)}::text[], ${copies.map((c) => c.address)}::text[],
              ${copies.map((c) => c.transaction_hash)}::text[], ${copies.map((c) => c.block_hash)}::text[],
              ${copies.map((c) => String(c.block_number))}::bigint[], ${copies.map((c) => c.body)}::text[]
            ) AS c(id, subscription_id, address, transaction_hash, block_hash, block_number, body)
            ON CONFLICT DO NOTHING`;
        }
        await advance(tx, position, nextOffset);
        return inserted;
      }, transactionOptions);
    },

    async claimDue(limit, leaseMs, now) {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const rows = await prisma.$queryRaw<{ id: string; subscription_id: string; callback_url: string; body: string; attempt_count: number }[]>`
        WITH due AS (
          SELECT d.id FROM webhook_deliveries d JOIN tx_subscriptions s ON s.id = d.subscription_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND (d.lease_until IS NULL OR d.lease_until < ${now}) AND s.enabled
          ORDER BY d.next_attempt_at, d.created_at
          LIMIT ${limit}
          FOR UPDATE OF d SKIP LOCKED
        )
        UPDATE webhook_deliveries d SET lease_until = ${leaseUntil}
        FROM due, tx_subscriptions s
        WHERE d.id = due.id AND s.id = d.subscription_id
        RETURNING d.id, d.subscription_id, s.callback_url, d.body, d.attempt_count`;
      if (rows.length === 0) return [];
      const subscriptionIds = [...new Set(rows.map((row) => row.subscription_id))];
      const secrets = await prisma.$queryRaw<{ subscription_id: string; ciphertext: string }[]>`
        SELECT subscription_id, ciphertext FROM tx_subscription_secrets
        WHERE subscription_id = ANY(${subscriptionIds}::text[]) AND (expires_at IS NULL OR expires_at > ${now})
        ORDER BY id DESC`;
      const bySubscription = new Map<string, string[]>();
      for (const secret of secrets) bySubscription.set(secret.subscription_id, [...(bySubscription.get(secret.subscription_id) ?? []), secret.ciphertext]);
      return rows.map((row) => ({
        id: row.id,
        subscriptionId: row.subscription_id,
        callbackUrl: row.callback_url,
        body: row.body,
        attemptCount: row.attempt_count,
        secretCiphertexts: bySubscription.get(row.subscription_id) ?? [],
      }));
    },

    async recordAttempt(attempt) {
      const { outcome } = attempt;
      await prisma.$transaction(async (tx) => {
        await tx.$executeRaw`
          INSERT INTO webhook_delivery_attempts (delivery_id, number, started_at, status_code, latency_ms, error)
          VALUES (${attempt.deliveryId}, ${attempt.number}, ${attempt.startedAt}, ${attempt.statusCode}, ${attempt.latencyMs}, ${attempt.error})
          ON CONFLICT DO NOTHING`;
        const status = outcome.kind === 'retry' ? 'pending' : outcome.kind;
        const nextAttemptAt = outcome.kind === 'retry' ? outcome.nextAttemptAt : null;
        await tx.$executeRaw`
          UPDATE webhook_deliveries SET
            status = ${status},
            attempt_count = greatest(attempt_count, ${attempt.number}),
            next_attempt_at = ${nextAttemptAt},
            lease_until = NULL,
            delivered_at = ${outcome.kind === 'delivered' ? attempt.startedAt : null}
          WHERE id = ${attempt.deliveryId}`;
        if (outcome.kind === 'failed' && outcome.disableSubscription) {
          const disabled = await tx.$executeRaw`
            UPDATE tx_subscriptions SET enabled = false, updated_at = now() WHERE id = ${attempt.subscriptionId} AND enabled`;
          if (disabled > 0) {
            await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('tx_subscription_changes'))`;
            await tx.$executeRaw`INSERT INTO tx_subscription_changes (subscription_id, kind) VALUES (${attempt.subscriptionId}, 'settings')`;
          }
        }
      }, transactionOptions);
    },

    async release(deliveryIds) {
      if (deliveryIds.length === 0) return;
      await prisma.$executeRaw`UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ANY(${[...deliveryIds]}::text[]) AND status = 'pending'`;
    },
  };
}
