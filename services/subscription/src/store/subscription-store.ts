import { Prisma, type PrismaClient } from '@wallet-api/core/db';
import { parseStoredFilters, type StoredFilters } from '../subscriptions/subscription-filters.js';

/** The chain set an empty `chainIds` stands for. */
export type SubscriptionNetwork = 'mainnet' | 'testnet';

export interface StoredSubscription {
  id: string;
  organizationId: string;
  network: SubscriptionNetwork;
  /** The organization's add-ons at the subscription's newest change. */
  addons: string[];
  callbackUrl: string;
  /** As the client gave them; empty means every chain of the network that passes the gate. */
  chainIds: string[];
  enabled: boolean;
  filters: StoredFilters | null;
  walletsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A subscription as its organization names it: another organization's id matches nothing. */
export interface SubscriptionRef {
  organizationId: string;
  subscriptionId: string;
}

/** A change made for a caller: its add-ons are stored on the subscription with the change. */
export interface ChangeRef extends SubscriptionRef {
  addons: readonly string[];
}

export interface NewSubscription {
  id: string;
  organizationId: string;
  network: SubscriptionNetwork;
  addons: readonly string[];
  callbackUrl: string;
  chainIds: readonly string[];
  filters: StoredFilters | null;
  /** Normalised wallet addresses; duplicates are stored once. */
  addresses: readonly string[];
  /** The first signing secret, sealed (SecretBox). */
  secretCiphertext: string;
}

/** The settings a `settings` change sets; an absent field is left as it is. */
export interface SettingsPatch {
  callbackUrl?: string;
  chainIds?: readonly string[];
  /** `null` clears the filters. */
  filters?: StoredFilters | null;
  enabled?: boolean;
}

export interface Page<T, K> {
  items: T[];
  /** The key to continue after; absent on the last page. */
  next?: K;
}

export interface SubscriptionKey {
  createdAt: Date;
  id: string;
}

/** What one add/remove actually changed: addresses already present or already absent are left out. */
export interface WalletsChanged {
  added: string[];
  removed: string[];
}

export interface WalletsReplaced {
  added: number;
  removed: number;
  count: number;
}

export interface StoredSecret {
  /** Sealed with the SecretBox; `open` it to sign. */
  ciphertext: string;
  createdAt: Date;
  /** `null` for the current secret. */
  expiresAt: Date | null;
}

/**
 * Kinds of `tx_subscription_changes` rows, and what a matcher does with one:
 * - `created`: load the subscription's settings and wallets;
 * - `settings`: load its settings again (callback URL, chains, filters, enabled, add-ons);
 * - `wallets`: add `added`, remove `removed` (only the addresses that changed);
 * - `replaced`: load its wallets again (the rows carry no addresses: a list may be long);
 * - `deleted`: forget it.
 */
export type ChangeKind = 'created' | 'settings' | 'wallets' | 'replaced' | 'deleted';

export interface SubscriptionChange {
  id: bigint;
  subscriptionId: string;
  kind: ChangeKind;
  added: string[];
  removed: string[];
  createdAt: Date;
}

/** What the matcher's index keeps of a subscription. */
export interface IndexSubscription {
  id: string;
  organizationId: string;
  network: SubscriptionNetwork;
  /** Where its webhooks go (the webhook body names it). */
  callbackUrl: string;
  addons: string[];
  chainIds: string[];
  enabled: boolean;
  filters: StoredFilters | null;
}

export interface IndexSnapshot {
  /**
   * The newest change when the snapshot began: every change after it may or may not be in the
   * snapshot, so apply `changesAfter(changeId)` on top (each kind is idempotent to apply again).
   */
  changeId: bigint;
  subscriptions: IndexSubscription[];
}

/** A place in (subscription_id, address) order. */
export interface WalletKey {
  subscriptionId: string;
  address: string;
}

export interface WalletPage {
  /** Subscriptions in id order, each with its addresses of this page in address order. */
  wallets: { subscriptionId: string; addresses: string[] }[];
  /** Where the next page starts after; absent on the last page. */
  next?: WalletKey;
}

export interface SubscriptionStore {
  /** The subscription, its wallets, its first secret and a `created` change, in one transaction. */
  create(subscription: NewSubscription): Promise<StoredSubscription>;
  get(ref: SubscriptionRef): Promise<StoredSubscription | null>;
  /** The organization's subscriptions in (created_at, id) order, after the key. */
  list(organizationId: string, options: { after?: SubscriptionKey; limit: number }): Promise<Page<StoredSubscription, SubscriptionKey>>;
  /** Deletes the subscription, its wallets, its secrets, its pending deliveries and their attempts; false when it is not the organization's. */
  delete(ref: SubscriptionRef): Promise<boolean>;
  /** Wallets in address order after `after`; `null` when the subscription is not the organization's. */
  listWallets(ref: SubscriptionRef, options: { after?: string; limit: number }): Promise<Page<string, string> | null>;
  countWallets(ref: SubscriptionRef): Promise<number | null>;
  /** Adds and removes wallets (normalised, disjoint lists); `null` when not the organization's. */
  updateWallets(ref: ChangeRef, change: { add: readonly string[]; remove: readonly string[] }): Promise<WalletsChanged | null>;
  /** Makes the wallet list exactly `addresses` (normalised); `null` when not the organization's. */
  replaceWallets(ref: ChangeRef, addresses: readonly string[]): Promise<WalletsReplaced | null>;
  /** Sets the given settings with a `settings` change; `null` when not the organization's. */
  updateSettings(ref: ChangeRef, patch: SettingsPatch): Promise<StoredSubscription | null>;
  /**
   * Stores a new current secret; every unexpired secret without an expiry (the current one)
   * gets `now + overlapMs`, and secrets already expired at `now` are deleted. `null` when not the
   * organization's.
   */
  rotateSecret(ref: ChangeRef, rotation: { ciphertext: string; now: Date; overlapMs: number }): Promise<{ previousExpiresAt: Date } | null>;
  /** Every secret that signs at `now`, newest first: the current one and those rotated out but not yet expired. */
  signingSecrets(subscriptionId: string, now: Date): Promise<StoredSecret[]>;

  // For the matcher's in-memory index.
  /** The newest change id; 0 when there is none. */
  latestChangeId(): Promise<bigint>;
  /** Changes after `id` in commit order (ids are assigned in commit order), at most `limit`. */
  changesAfter(id: bigint, limit: number): Promise<SubscriptionChange[]>;
  /** Every subscription's settings, and the change id to replay from (read first). */
  loadIndexSnapshot(): Promise<IndexSnapshot>;
  /** One page of every subscription's wallets in (subscription_id, address) order after `after`. */
  walletPage(after: WalletKey | undefined, pageSize: number): Promise<WalletPage>;
  /** Every subscription's wallets, page by page (default 50,000 rows a page). */
  walletPages(pageSize?: number): AsyncGenerator<WalletPage>;
  loadSubscriptionSettings(subscriptionId: string): Promise<IndexSubscription | null>;
  loadWallets(subscriptionId: string): Promise<string[]>;
}

type Transaction = Prisma.TransactionClient;

interface SubscriptionRow {
  id: string;
  organization_id: string;
  network: string;
  addons: string[] | null;
  callback_url: string;
  chain_ids: string[] | null;
  enabled: boolean;
  filters: unknown;
  wallets_count: number;
  created_at: Date;
  updated_at: Date;
}

const subscriptionColumns = Prisma.sql`id, organization_id::text AS organization_id, network, addons, callback_url, chain_ids, enabled, filters, wallets_count, created_at, updated_at`;
const indexColumns = Prisma.sql`id, organization_id::text AS organization_id, network, callback_url, addons, chain_ids, enabled, filters`;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const transactionOptions = { maxWait: 10_000, timeout: 120_000 };

function network(text: string): SubscriptionNetwork {
  if (text !== 'mainnet' && text !== 'testnet') throw new Error(`stored subscription network ${JSON.stringify(text)} is neither mainnet nor testnet`);
  return text;
}

function toSubscription(row: SubscriptionRow): StoredSubscription {
  return {
    id: row.id,
    organizationId: row.organization_id,
    network: network(row.network),
    addons: row.addons ?? [],
    callbackUrl: row.callback_url,
    chainIds: row.chain_ids ?? [],
    enabled: row.enabled,
    filters: parseStoredFilters(row.filters),
    walletsCount: Number(row.wallets_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toIndexSubscription(row: Omit<SubscriptionRow, 'wallets_count' | 'created_at' | 'updated_at'>): IndexSubscription {
  return {
    id: row.id,
    organizationId: row.organization_id,
    network: network(row.network),
    callbackUrl: row.callback_url,
    addons: row.addons ?? [],
    chainIds: row.chain_ids ?? [],
    enabled: row.enabled,
    filters: parseStoredFilters(row.filters),
  };
}

const filtersJson = (filters: StoredFilters | null) => (filters === null ? null : JSON.stringify(filters));
const sameSet = (a: readonly string[], b: readonly string[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((item) => right.has(item));
};

/**
 * Appends a change row. Ids of `tx_subscription_changes` come from a sequence, which hands them
 * out in insert order, not commit order: a matcher reading "after the newest I applied" could
 * skip a row whose transaction committed late. So every writer takes one transaction-scoped
 * advisory lock right before its change rows (the last statements of its transaction): ids are
 * then handed out, and become visible, in commit order. Only this short tail is serialized.
 * Anything else that writes change rows (the dispatcher disabling a subscription on 410) must use
 * this function too.
 */
export async function appendChanges(
  tx: Transaction,
  changes: readonly { subscriptionId: string; kind: ChangeKind; added?: readonly string[]; removed?: readonly string[] }[],
): Promise<void> {
  if (changes.length === 0) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('tx_subscription_changes'))`;
  for (const change of changes) {
    await tx.$executeRaw`
      INSERT INTO tx_subscription_changes (subscription_id, kind, added, removed)
      VALUES (${change.subscriptionId}, ${change.kind}, ${[...(change.added ?? [])]}::text[], ${[...(change.removed ?? [])]}::text[])`;
  }
}

/**
 * Locks the organization's subscription row for the rest of the transaction (so concurrent
 * wallet changes of one subscription serialize and wallets_count stays exact) and answers its
 * stored add-ons; `null` when it is not the organization's.
 */
async function lockOwned(tx: Transaction, ref: SubscriptionRef): Promise<{ addons: string[] } | null> {
  if (!uuidPattern.test(ref.organizationId)) return null;
  const rows = await tx.$queryRaw<{ addons: string[] | null }[]>`
    SELECT addons FROM tx_subscriptions WHERE id = ${ref.subscriptionId} AND organization_id = ${ref.organizationId}::uuid FOR UPDATE`;
  const row = rows[0];
  return row ? { addons: row.addons ?? [] } : null;
}

/** A `settings` change when the caller's add-ons differ from the stored ones (they decide asset_class in webhooks). */
const addonsChange = (ref: ChangeRef, stored: readonly string[]) =>
  sameSet(ref.addons, stored) ? [] : [{ subscriptionId: ref.subscriptionId, kind: 'settings' as const }];

export function createSubscriptionStore(prisma: PrismaClient): SubscriptionStore {
  async function selectOwned(db: Transaction | PrismaClient, ref: SubscriptionRef): Promise<StoredSubscription | null> {
    if (!uuidPattern.test(ref.organizationId)) return null;
    const rows = await db.$queryRaw<SubscriptionRow[]>`
      SELECT ${subscriptionColumns} FROM tx_subscriptions WHERE id = ${ref.subscriptionId} AND organization_id = ${ref.organizationId}::uuid`;
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  async function latestChangeId(): Promise<bigint> {
    const [row] = await prisma.$queryRaw<{ id: bigint | null }[]>`SELECT max(id) AS id FROM tx_subscription_changes`;
    return row?.id ?? 0n;
  }

  async function walletPage(after: WalletKey | undefined, pageSize: number): Promise<WalletPage> {
    // One row per subscription of the page with its addresses as an array: 50,000 wallets cost a
    // few objects, not 50,000. The (subscription_id, address) comparison walks the primary key.
    const rows = await prisma.$queryRaw<{ subscription_id: string; addresses: string[] }[]>`
      SELECT subscription_id, array_agg(address ORDER BY address) AS addresses
      FROM (
        SELECT subscription_id, address FROM tx_subscription_wallets
        ${after ? Prisma.sql`WHERE (subscription_id, address) > (${after.subscriptionId}, ${after.address})` : Prisma.empty}
        ORDER BY subscription_id, address
        LIMIT ${pageSize}
      ) AS page
      GROUP BY subscription_id
      ORDER BY subscription_id`;
    const wallets = rows.map((row) => ({ subscriptionId: row.subscription_id, addresses: row.addresses }));
    const rowCount = wallets.reduce((sum, wallet) => sum + wallet.addresses.length, 0);
    const last = wallets[wallets.length - 1];
    return rowCount < pageSize || last === undefined
      ? { wallets }
      : { wallets, next: { subscriptionId: last.subscriptionId, address: last.addresses[last.addresses.length - 1]! } };
  }

  return {
    async create(subscription) {
      const addresses = [...new Set(subscription.addresses)];
      return prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<SubscriptionRow[]>`
          INSERT INTO tx_subscriptions (id, organization_id, network, addons, callback_url, chain_ids, enabled, filters, wallets_count)
          VALUES (${subscription.id}, ${subscription.organizationId}::uuid, ${subscription.network}, ${[...subscription.addons]}::text[],
            ${subscription.callbackUrl}, ${[...subscription.chainIds]}::text[], true, ${filtersJson(subscription.filters)}::jsonb, ${addresses.length})
          RETURNING ${subscriptionColumns}`;
        await tx.$executeRaw`
          INSERT INTO tx_subscription_wallets (subscription_id, address)
          SELECT ${subscription.id}, address FROM unnest(${addresses}::text[]) AS address`;
        await tx.$executeRaw`
          INSERT INTO tx_subscription_secrets (subscription_id, ciphertext) VALUES (${subscription.id}, ${subscription.secretCiphertext})`;
        await appendChanges(tx, [{ subscriptionId: subscription.id, kind: 'created', added: addresses }]);
        return toSubscription(rows[0]!);
      }, transactionOptions);
    },

    get: (ref) => selectOwned(prisma, ref),

    async list(organizationId, { after, limit }) {
      if (!uuidPattern.test(organizationId)) return { items: [] };
      const rows = await prisma.$queryRaw<SubscriptionRow[]>`
        SELECT ${subscriptionColumns} FROM tx_subscriptions
        WHERE organization_id = ${organizationId}::uuid
          ${after ? Prisma.sql`AND (created_at, id) > (${after.createdAt}::timestamptz, ${after.id})` : Prisma.empty}
        ORDER BY created_at, id
        LIMIT ${limit + 1}`;
      const items = rows.slice(0, limit).map(toSubscription);
      const last = items[items.length - 1];
      return rows.length > limit && last ? { items, next: { createdAt: last.createdAt, id: last.id } } : { items };
    },

    async delete(ref) {
      return prisma.$transaction(async (tx) => {
        if (!(await lockOwned(tx, ref))) return false;
        const id = ref.subscriptionId;
        await tx.$executeRaw`
          DELETE FROM webhook_delivery_attempts
          WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE subscription_id = ${id} AND status = 'pending')`;
        await tx.$executeRaw`DELETE FROM webhook_deliveries WHERE subscription_id = ${id} AND status = 'pending'`;
        await tx.$executeRaw`DELETE FROM tx_subscription_wallets WHERE subscription_id = ${id}`;
        await tx.$executeRaw`DELETE FROM tx_subscription_secrets WHERE subscription_id = ${id}`;
        await tx.$executeRaw`DELETE FROM tx_subscriptions WHERE id = ${id}`;
        await appendChanges(tx, [{ subscriptionId: id, kind: 'deleted' }]);
        return true;
      }, transactionOptions);
    },

    async listWallets(ref, { after, limit }) {
      if (!(await selectOwned(prisma, ref))) return null;
      const rows = await prisma.$queryRaw<{ address: string }[]>`
        SELECT address FROM tx_subscription_wallets
        WHERE subscription_id = ${ref.subscriptionId} ${after !== undefined ? Prisma.sql`AND address > ${after}` : Prisma.empty}
        ORDER BY address
        LIMIT ${limit + 1}`;
      const items = rows.slice(0, limit).map((row) => row.address);
      const last = items[items.length - 1];
      return rows.length > limit && last !== undefined ? { items, next: last } : { items };
    },

    async countWallets(ref) {
      return (await selectOwned(prisma, ref))?.walletsCount ?? null;
    },

    async updateWallets(ref, { add, remove }) {
      return prisma.$transaction(async (tx) => {
        const owned = await lockOwned(tx, ref);
        if (!owned) return null;
        const id = ref.subscriptionId;
        const added =
          add.length === 0
            ? []
            : await tx.$queryRaw<{ address: string }[]>`
          INSERT INTO tx_subscription_wallets (subscription_id, address)
          SELECT ${id}, address FROM unnest(${[...new Set(add)]}::text[]) AS address
          ON CONFLICT DO NOTHING
          RETURNING address`;
        const removed =
          remove.length === 0
            ? []
            : await tx.$queryRaw<{ address: string }[]>`
          DELETE FROM tx_subscription_wallets WHERE subscription_id = ${id} AND address = ANY(${[...new Set(remove)]}::text[])
          RETURNING address`;
        const changed: WalletsChanged = { added: added.map((row) => row.address), removed: removed.map((row) => row.address) };
        const anyChanged = changed.added.length + changed.removed.length > 0;
        await tx.$executeRaw`
          UPDATE tx_subscriptions
          SET wallets_count = wallets_count + ${changed.added.length - changed.removed.length}, addons = ${[...ref.addons]}::text[]
            ${anyChanged ? Prisma.sql`, updated_at = now()` : Prisma.empty}
          WHERE id = ${id}`;
        const walletChange = anyChanged ? [{ subscriptionId: id, kind: 'wallets' as const, ...changed }] : [];
        await appendChanges(tx, [...addonsChange(ref, owned.addons), ...walletChange]);
        return changed;
      }, transactionOptions);
    },

    async replaceWallets(ref, addresses) {
      return prisma.$transaction(async (tx) => {
        const owned = await lockOwned(tx, ref);
        if (!owned) return null;
        const id = ref.subscriptionId;
        // The diff is made in SQL: a long stored list is never read into memory.
        await tx.$executeRaw`CREATE TEMPORARY TABLE replacing_wallets (address text PRIMARY KEY) ON COMMIT DROP`;
        await tx.$executeRaw`INSERT INTO replacing_wallets SELECT DISTINCT unnest(${[...addresses]}::text[])`;
        const [diff] = await tx.$queryRaw<{ removed: number; added: number; count: number }[]>`
          WITH removed AS (
            DELETE FROM tx_subscription_wallets w
            WHERE w.subscription_id = ${id} AND NOT EXISTS (SELECT 1 FROM replacing_wallets r WHERE r.address = w.address)
            RETURNING 1
          ), added AS (
            INSERT INTO tx_subscription_wallets (subscription_id, address)
            SELECT ${id}, address FROM replacing_wallets
            ON CONFLICT DO NOTHING
            RETURNING 1
          )
          SELECT (SELECT count(*) FROM removed)::int AS removed, (SELECT count(*) FROM added)::int AS added,
            (SELECT count(*) FROM replacing_wallets)::int AS count`;
        const replaced: WalletsReplaced = { added: diff!.added, removed: diff!.removed, count: diff!.count };
        await tx.$executeRaw`
          UPDATE tx_subscriptions SET wallets_count = ${replaced.count}, addons = ${[...ref.addons]}::text[], updated_at = now() WHERE id = ${id}`;
        await appendChanges(tx, [...addonsChange(ref, owned.addons), { subscriptionId: id, kind: 'replaced' }]);
        return replaced;
      }, transactionOptions);
    },

    async updateSettings(ref, patch) {
      if (!uuidPattern.test(ref.organizationId)) return null;
      return prisma.$transaction(async (tx) => {
        const sets = [Prisma.sql`addons = ${[...ref.addons]}::text[]`, Prisma.sql`updated_at = now()`];
        if (patch.callbackUrl !== undefined) sets.push(Prisma.sql`callback_url = ${patch.callbackUrl}`);
        if (patch.chainIds !== undefined) sets.push(Prisma.sql`chain_ids = ${[...patch.chainIds]}::text[]`);
        if (patch.filters !== undefined) sets.push(Prisma.sql`filters = ${filtersJson(patch.filters)}::jsonb`);
        if (patch.enabled !== undefined) sets.push(Prisma.sql`enabled = ${patch.enabled}`);
        const rows = await tx.$queryRaw<SubscriptionRow[]>`
          UPDATE tx_subscriptions SET ${Prisma.join(sets, ', ')}
          WHERE id = ${ref.subscriptionId} AND organization_id = ${ref.organizationId}::uuid
          RETURNING ${subscriptionColumns}`;
        if (!rows[0]) return null;
        await appendChanges(tx, [{ subscriptionId: ref.subscriptionId, kind: 'settings' }]);
        return toSubscription(rows[0]);
      }, transactionOptions);
    },

    async rotateSecret(ref, { ciphertext, now, overlapMs }) {
      return prisma.$transaction(async (tx) => {
        const owned = await lockOwned(tx, ref);
        if (!owned) return null;
        const id = ref.subscriptionId;
        const previousExpiresAt = new Date(now.getTime() + overlapMs);
        await tx.$executeRaw`DELETE FROM tx_subscription_secrets WHERE subscription_id = ${id} AND expires_at <= ${now}::timestamptz`;
        await tx.$executeRaw`UPDATE tx_subscription_secrets SET expires_at = ${previousExpiresAt}::timestamptz WHERE subscription_id = ${id} AND expires_at IS NULL`;
        await tx.$executeRaw`INSERT INTO tx_subscription_secrets (subscription_id, ciphertext, created_at) VALUES (${id}, ${ciphertext}, ${now}::timestamptz)`;
        await tx.$executeRaw`UPDATE tx_subscriptions SET addons = ${[...ref.addons]}::text[] WHERE id = ${id}`;
        await appendChanges(tx, addonsChange(ref, owned.addons));
        return { previousExpiresAt };
      }, transactionOptions);
    },

    async signingSecrets(subscriptionId, now) {
      const rows = await prisma.$queryRaw<{ ciphertext: string; created_at: Date; expires_at: Date | null }[]>`
        SELECT ciphertext, created_at, expires_at FROM tx_subscription_secrets
        WHERE subscription_id = ${subscriptionId} AND (expires_at IS NULL OR expires_at > ${now}::timestamptz)
        ORDER BY expires_at DESC NULLS FIRST, id DESC`;
      return rows.map((row) => ({ ciphertext: row.ciphertext, createdAt: row.created_at, expiresAt: row.expires_at }));
    },

    latestChangeId,

    async changesAfter(id, limit) {
      const rows = await prisma.$queryRaw<
        { id: bigint; subscription_id: string; kind: ChangeKind; added: string[] | null; removed: string[] | null; created_at: Date }[]
      >`
        SELECT id, subscription_id, kind, added, removed, created_at FROM tx_subscription_changes
        WHERE id > ${id} ORDER BY id LIMIT ${limit}`;
      return rows.map((row) => ({
        id: row.id,
        subscriptionId: row.subscription_id,
        kind: row.kind,
        added: row.added ?? [],
        removed: row.removed ?? [],
        createdAt: row.created_at,
      }));
    },

    async loadIndexSnapshot() {
      const changeId = await latestChangeId();
      const rows = await prisma.$queryRaw<SubscriptionRow[]>`
        SELECT ${indexColumns} FROM tx_subscriptions ORDER BY id`;
      return { changeId, subscriptions: rows.map(toIndexSubscription) };
    },

    walletPage,

    async *walletPages(pageSize = 50_000) {
      let after: WalletKey | undefined;
      do {
        const page = await walletPage(after, pageSize);
        if (page.wallets.length > 0) yield page;
        after = page.next;
      } while (after);
    },

    async loadSubscriptionSettings(subscriptionId) {
      const rows = await prisma.$queryRaw<SubscriptionRow[]>`
        SELECT ${indexColumns} FROM tx_subscriptions WHERE id = ${subscriptionId}`;
      return rows[0] ? toIndexSubscription(rows[0]) : null;
    },

    async loadWallets(subscriptionId) {
      const [row] = await prisma.$queryRaw<{ addresses: string[] | null }[]>`
        SELECT array_agg(address ORDER BY address) AS addresses FROM tx_subscription_wallets WHERE subscription_id = ${subscriptionId}`;
      return row?.addresses ?? [];
    },
  };
}
