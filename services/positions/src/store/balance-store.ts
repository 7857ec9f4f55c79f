import { createHash } from 'node:crypto';
import { Prisma, type PrismaClient } from '@wallet-api/core/db';

/** One BalanceChange of a fungible asset, as the indexer keys it. */
export interface BalanceEntry {
  chainId: string;
  blockHash: string;
  transactionIndex: number;
  wallet: string;
  /** Lowercase token contract; '' for the chain's native asset. */
  asset: string;
  blockNumber: bigint;
  blockTimestamp: bigint;
  /** Signed, in base units. */
  amount: bigint;
}

export interface BlockRef {
  hash: string;
  number: bigint;
}

/** What the block and rollback topics last said about a block: newest sequence wins. */
export interface BlockState {
  chainId: string;
  blockHash: string;
  orphaned: boolean;
  sequence: bigint;
  /** For a block a rollback orphans: that rollback's common ancestor. */
  ancestor?: BlockRef;
}

/** One balance: a wallet's holding of one asset on one chain. */
export interface BalanceKey {
  chainId: string;
  wallet: string;
  /** '' for the native asset. */
  asset: string;
}

/** A balance as the chain answered after the block with this hash; entries up to it are inside. */
export interface Opening extends BalanceKey {
  blockHash: string;
  blockNumber: bigint;
  blockTimestamp: bigint;
  amount: bigint;
}

/** What the block topics said of a block the service knows. */
export interface KnownBlock {
  orphaned: boolean;
  ancestor?: BlockRef;
}

/**
 * `stale-opening`: nothing was written because an opening was read at a block that the rollback
 * topic has since orphaned, or a rollback orphans the block of an opening it brought no re-read
 * for (one written after the caller looked); read again and retry.
 */
export type ApplyOutcome = 'applied' | 'stale-opening';

export interface WalletBalance {
  chainId: string;
  /** '' for the native asset. */
  asset: string;
  amount: bigint;
  updatedBlock: bigint;
  updatedAt: bigint;
}

export interface BalanceStore {
  /** The blocks of these hashes the block topics spoke of. */
  knownBlocks(chainId: string, hashes: readonly string[]): Promise<Map<string, KnownBlock>>;
  /** The balances whose opening was read at one of these blocks. */
  openedAt(chainId: string, hashes: readonly string[]): Promise<BalanceKey[]>;
  /**
   * Records the openings of balances that have none and the entries not seen before; an entry
   * counts when its block is not orphaned and is newer than its balance's opening. Writes nothing
   * and answers `missing` when a balance of the entries has no opening, neither stored nor given
   * (nor in `unopened`: balances no block is known to read at, whose entries do not count).
   */
  applyEntries(
    entries: readonly BalanceEntry[],
    openings: readonly Opening[],
    unopened?: readonly BalanceKey[],
  ): Promise<ApplyOutcome | { missing: BalanceKey[] }>;
  /**
   * Records block states newer than the stored ones; a block that becomes orphaned takes its
   * entries out of the balances, one that becomes canonical again puts them back. An opening read
   * at a block that becomes orphaned is replaced by its re-read in `reopened` (at the rollback's
   * common ancestor). `flipped`: how many blocks changed between counted and not.
   */
  applyBlockStates(states: readonly BlockState[], reopened?: readonly Opening[]): Promise<{ outcome: ApplyOutcome; flipped: number }>;
  /** The wallet's non-zero balances on the chains. */
  walletBalances(wallet: string, chainIds: readonly string[]): Promise<WalletBalance[]>;
}

type Transaction = Prisma.TransactionClient;

class StaleOpening extends Error {}
class MissingOpenings extends Error {}

const int64Key = (text: string) => createHash('sha256').update(text).digest().readBigInt64BE(0);
const byKey = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const chainLockSpace = 0x706f73;

/**
 * Two kinds of transaction-scoped advisory locks, all taken in one statement, chains first, each
 * kind in ascending key order, so two transactions never wait for each other in a cycle:
 * - per chain (two-key locks, a key space apart from the block locks): openings change only in a
 *   rollback, which holds its chain's lock exclusively while entries and block states hold it
 *   shared, so an entry is never counted against an opening a concurrent rollback is replacing,
 *   and a re-read balance never misses an entry committed beside it;
 * - per block: entries and state changes of one block are serialized, so an entry and the
 *   rollback of its block never both miss each other.
 */
async function lock(tx: Transaction, chainMode: 'shared' | 'exclusive', blocks: Iterable<{ chainId: string; blockHash: string }>): Promise<void> {
  const chainKeys = new Set<number>();
  const blockKeys = new Set<bigint>();
  for (const { chainId, blockHash } of blocks) {
    chainKeys.add(createHash('sha256').update(chainId).digest().readInt32BE(0));
    blockKeys.add(int64Key(`${chainId}:${blockHash}`));
  }
  if (blockKeys.size === 0) return;
  const chains = [...chainKeys].sort((a, b) => a - b);
  const sortedBlocks = [...blockKeys].sort(byKey).map(String);
  const chainLock = chainMode === 'shared' ? Prisma.sql`pg_advisory_xact_lock_shared` : Prisma.sql`pg_advisory_xact_lock`;
  await tx.$executeRaw`
    SELECT count(*) FROM (
      (SELECT ${chainLock}(${chainLockSpace}::int, k) FROM (SELECT unnest(${chains}::int[]) AS k ORDER BY k) AS c)
      UNION ALL
      (SELECT pg_advisory_xact_lock(k) FROM (SELECT unnest(${sortedBlocks}::bigint[]) AS k ORDER BY k) AS b)
    ) AS locked`;
}

function keyArrays(keys: readonly BalanceKey[]) {
  return { chains: keys.map((key) => key.chainId), wallets: keys.map((key) => key.wallet), assets: keys.map((key) => key.asset) };
}

/**
 * Sets balances to their opening plus their counted entries after it, with the newest counted
 * entry (or else the opening's block) as their updated block: for balances whose opening was just
 * written, where an increment would not do.
 */
async function recompute(tx: Transaction, keys: readonly BalanceKey[]): Promise<void> {
  if (keys.length === 0) return;
  const { chains, wallets, assets } = keyArrays(keys);
  await tx.$executeRaw`
    WITH affected AS (
      SELECT DISTINCT * FROM unnest(${chains}::text[], ${wallets}::text[], ${assets}::text[]) AS a(chain_id, wallet, asset)
    ), computed AS (
      SELECT o.chain_id, o.wallet, o.asset,
        o.amount + coalesce(counted.amount, 0) AS amount,
        coalesce(newest.block_number, o.block_number) AS updated_block,
        coalesce(newest.block_timestamp, o.block_timestamp) AS updated_at
      FROM affected a
      JOIN balance_openings o ON o.chain_id = a.chain_id AND o.wallet = a.wallet AND o.asset = a.asset
      LEFT JOIN LATERAL (
        SELECT sum(e.amount) AS amount
        FROM balance_entries e
        LEFT JOIN position_block_states s ON s.chain_id = e.chain_id AND s.block_hash = e.block_hash
        WHERE e.chain_id = o.chain_id AND e.wallet = o.wallet AND e.asset = o.asset AND e.block_number > o.block_number AND s.orphaned IS NOT TRUE
      ) counted ON true
      LEFT JOIN LATERAL (
        SELECT e.block_number, e.block_timestamp
        FROM balance_entries e
        LEFT JOIN position_block_states s ON s.chain_id = e.chain_id AND s.block_hash = e.block_hash
        WHERE e.chain_id = o.chain_id AND e.wallet = o.wallet AND e.asset = o.asset AND s.orphaned IS NOT TRUE
        ORDER BY e.block_number DESC
        LIMIT 1
      ) newest ON true
    )
    INSERT INTO wallet_balances AS b (chain_id, wallet, asset, amount, updated_block, updated_at)
    SELECT chain_id, wallet, asset, amount, updated_block, updated_at FROM computed
    ORDER BY chain_id, wallet, asset
    ON CONFLICT (chain_id, wallet, asset) DO UPDATE SET amount = excluded.amount, updated_block = excluded.updated_block, updated_at = excluded.updated_at`;
}

/**
 * Sets each balance's updated block and time to its newest entry still counted, or else to its
 * opening's block, and drops the balances with neither (their amount is zero then).
 */
async function refreshUpdated(tx: Transaction, balances: readonly BalanceKey[]): Promise<void> {
  if (balances.length === 0) return;
  const { chains, wallets, assets } = keyArrays(balances);
  await tx.$executeRaw`
    WITH affected AS (
      SELECT DISTINCT * FROM unnest(${chains}::text[], ${wallets}::text[], ${assets}::text[]) AS a(chain_id, wallet, asset)
    ), newest AS (
      SELECT a.chain_id, a.wallet, a.asset,
        coalesce(e.block_number, o.block_number) AS block_number,
        coalesce(e.block_timestamp, o.block_timestamp) AS block_timestamp
      FROM affected a
      LEFT JOIN balance_openings o ON o.chain_id = a.chain_id AND o.wallet = a.wallet AND o.asset = a.asset
      LEFT JOIN LATERAL (
        SELECT e.block_number, e.block_timestamp
        FROM balance_entries e
        LEFT JOIN position_block_states s ON s.chain_id = e.chain_id AND s.block_hash = e.block_hash
        WHERE e.chain_id = a.chain_id AND e.wallet = a.wallet AND e.asset = a.asset AND s.orphaned IS NOT TRUE
        ORDER BY e.block_number DESC
        LIMIT 1
      ) e ON true
    ), removed AS (
      DELETE FROM wallet_balances b USING newest n
      WHERE b.chain_id = n.chain_id AND b.wallet = n.wallet AND b.asset = n.asset AND n.block_number IS NULL
    )
    UPDATE wallet_balances b SET updated_block = n.block_number, updated_at = n.block_timestamp
    FROM newest n
    WHERE b.chain_id = n.chain_id AND b.wallet = n.wallet AND b.asset = n.asset AND n.block_number IS NOT NULL`;
}

/** The latest state per block; a batch may name a block more than once. */
function newestStates(states: readonly BlockState[]): BlockState[] {
  const newest = new Map<string, BlockState>();
  for (const state of states) {
    const key = `${state.chainId}:${state.blockHash}`;
    const seen = newest.get(key);
    if (!seen || seen.sequence < state.sequence) newest.set(key, state);
  }
  return [...newest.values()];
}

/** PostgreSQL reports a deadlock or a serialization failure; the whole transaction may simply run again. */
function isRetryable(error: unknown): boolean {
  const text = String((error as { message?: string })?.message ?? '') + JSON.stringify((error as { meta?: unknown })?.meta ?? {});
  return /40P01|40001|deadlock detected|could not serialize/.test(text);
}

async function inTransaction(prisma: PrismaClient, work: (tx: Transaction) => Promise<void>): Promise<ApplyOutcome | 'missing-openings'> {
  for (let attempt = 1; ; attempt++) {
    try {
      await prisma.$transaction(work, { timeout: 60_000, maxWait: 10_000 });
      return 'applied';
    } catch (error) {
      if (error instanceof StaleOpening) return 'stale-opening';
      if (error instanceof MissingOpenings) return 'missing-openings';
      if (attempt >= 3 || !isRetryable(error)) throw error;
    }
  }
}

/** A balance's key as text, for maps. */
export const balanceKey = (key: BalanceKey): string => `${key.chainId}:${key.wallet}:${key.asset}`;

/**
 * Balances kept exactly (NUMERIC(78,0)) from an opening read on the chain plus the balance-change
 * topic, correct across rollbacks and redeliveries: entries are idempotent by the indexer's key, a
 * block's entries count exactly while the newest word on the block is not a rollback, and an
 * opening read at a block that a rollback orphans is replaced by one read at its common ancestor.
 * One transaction per batch.
 */
export function createBalanceStore(prisma: PrismaClient): BalanceStore {
  return {
    async knownBlocks(chainId, hashes) {
      if (hashes.length === 0) return new Map();
      const rows = await prisma.$queryRaw<{ block_hash: string; orphaned: boolean; ancestor_hash: string | null; ancestor_number: bigint | null }[]>`
        SELECT block_hash, orphaned, ancestor_hash, ancestor_number
        FROM position_block_states
        WHERE chain_id = ${chainId} AND block_hash = ANY(${[...hashes]}::text[])`;
      return new Map(
        rows.map((row) => [
          row.block_hash,
          {
            orphaned: row.orphaned,
            ...(row.ancestor_hash !== null && row.ancestor_number !== null
              ? { ancestor: { hash: row.ancestor_hash, number: BigInt(row.ancestor_number) } }
              : {}),
          },
        ]),
      );
    },

    async openedAt(chainId, hashes) {
      if (hashes.length === 0) return [];
      const rows = await prisma.$queryRaw<{ wallet: string; asset: string }[]>`
        SELECT wallet, asset FROM balance_openings WHERE chain_id = ${chainId} AND block_hash = ANY(${[...hashes]}::text[])`;
      return rows.map((row) => ({ chainId, wallet: row.wallet, asset: row.asset }));
    },

    async applyEntries(input, openings, unopened = []) {
      const unique = new Map<string, BalanceEntry>();
      for (const entry of input) unique.set(`${entry.chainId}:${entry.blockHash}:${entry.transactionIndex}:${entry.wallet}:${entry.asset}`, entry);
      const entries = [...unique.values()];
      if (entries.length === 0) return 'applied';
      let missing: BalanceKey[] = [];
      const outcome = await inTransaction(prisma, async (tx) => {
        await lock(tx, 'shared', [...entries, ...openings]);
        const opened: BalanceKey[] = [];
        if (openings.length > 0) {
          const [orphaned] = await tx.$queryRaw<{ count: bigint }[]>`
            SELECT count(*) AS count
            FROM unnest(${openings.map((opening) => opening.chainId)}::text[], ${openings.map((opening) => opening.blockHash)}::text[]) AS o(chain_id, block_hash)
            JOIN position_block_states s ON s.chain_id = o.chain_id AND s.block_hash = o.block_hash
            WHERE s.orphaned`;
          if (orphaned!.count > 0n) throw new StaleOpening();
          const written = await tx.$queryRaw<{ chain_id: string; wallet: string; asset: string }[]>`
            INSERT INTO balance_openings (chain_id, wallet, asset, block_hash, block_number, block_timestamp, amount)
            SELECT * FROM unnest(
              ${openings.map((opening) => opening.chainId)}::text[],
              ${openings.map((opening) => opening.wallet)}::text[],
              ${openings.map((opening) => opening.asset)}::text[],
              ${openings.map((opening) => opening.blockHash)}::text[],
              ${openings.map((opening) => String(opening.blockNumber))}::bigint[],
              ${openings.map((opening) => String(opening.blockTimestamp))}::bigint[],
              ${openings.map((opening) => String(opening.amount))}::numeric[]
            )
            ON CONFLICT DO NOTHING
            RETURNING chain_id, wallet, asset`;
          opened.push(...written.map((row) => ({ chainId: row.chain_id, wallet: row.wallet, asset: row.asset })));
        }
        const allowed = keyArrays(unopened);
        // One statement: nothing is written when a balance has no opening (the caller reads them
        // and comes back); otherwise the entries not seen before go in, and the balances opened
        // before take the increment (those opened just now are set whole below).
        const unopenedRows = await tx.$queryRaw<{ chain_id: string; wallet: string; asset: string }[]>`
          WITH input AS (
            SELECT * FROM unnest(
              ${entries.map((entry) => entry.chainId)}::text[],
              ${entries.map((entry) => entry.blockHash)}::text[],
              ${entries.map((entry) => entry.transactionIndex)}::int[],
              ${entries.map((entry) => entry.wallet)}::text[],
              ${entries.map((entry) => entry.asset)}::text[],
              ${entries.map((entry) => String(entry.blockNumber))}::bigint[],
              ${entries.map((entry) => String(entry.blockTimestamp))}::bigint[],
              ${entries.map((entry) => String(entry.amount))}::numeric[]
            ) AS i(chain_id, block_hash, transaction_index, wallet, asset, block_number, block_timestamp, amount)
          ), unopened AS (
            SELECT DISTINCT i.chain_id, i.wallet, i.asset FROM input i
            WHERE NOT EXISTS (SELECT 1 FROM balance_openings o WHERE o.chain_id = i.chain_id AND o.wallet = i.wallet AND o.asset = i.asset)
              AND NOT EXISTS (
                SELECT 1 FROM unnest(${allowed.chains}::text[], ${allowed.wallets}::text[], ${allowed.assets}::text[]) AS u(chain_id, wallet, asset)
                WHERE u.chain_id = i.chain_id AND u.wallet = i.wallet AND u.asset = i.asset
              )
          ), inserted AS (
            INSERT INTO balance_entries (chain_id, block_hash, transaction_index, wallet, asset, block_number, block_timestamp, amount)
            SELECT * FROM input WHERE NOT EXISTS (SELECT 1 FROM unopened)
            ON CONFLICT DO NOTHING
            RETURNING *
          ), counted AS (
            SELECT i.* FROM inserted i
            LEFT JOIN position_block_states s ON s.chain_id = i.chain_id AND s.block_hash = i.block_hash
            LEFT JOIN balance_openings o ON o.chain_id = i.chain_id AND o.wallet = i.wallet AND o.asset = i.asset
            WHERE s.orphaned IS NOT TRUE AND i.block_number > coalesce(o.block_number, -1)
          ), deltas AS (
            SELECT chain_id, wallet, asset, sum(amount) AS amount,
              max(block_number) AS updated_block,
              (array_agg(block_timestamp ORDER BY block_number DESC))[1] AS updated_at
            FROM counted
            GROUP BY chain_id, wallet, asset
          ), applied AS (
            INSERT INTO wallet_balances AS b (chain_id, wallet, asset, amount, updated_block, updated_at)
            SELECT chain_id, wallet, asset, amount, updated_block, updated_at FROM deltas
            ORDER BY chain_id, wallet, asset
            ON CONFLICT (chain_id, wallet, asset) DO UPDATE SET
              amount = b.amount + excluded.amount,
              updated_at = CASE WHEN excluded.updated_block >= b.updated_block THEN excluded.updated_at ELSE b.updated_at END,
              updated_block = GREATEST(b.updated_block, excluded.updated_block)
          )
          SELECT chain_id, wallet, asset FROM unopened`;
        if (unopenedRows.length > 0) {
          missing = unopenedRows.map((row) => ({ chainId: row.chain_id, wallet: row.wallet, asset: row.asset }));
          throw new MissingOpenings();
        }
        await recompute(tx, opened);
      });
      return outcome === 'missing-openings' ? { missing } : outcome;
    },

    async applyBlockStates(input, reopened = []) {
      const states = newestStates(input);
      if (states.length === 0) return { outcome: 'applied', flipped: 0 };
      let flippedCount = 0;
      const outcome = await inTransaction(prisma, async (tx) => {
        await lock(tx, states.some((state) => state.orphaned) ? 'exclusive' : 'shared', states);
        // Which blocks change between counted and not: a block with no state yet was counted.
        const flipped = await tx.$queryRaw<{ chain_id: string; block_hash: string; orphaned: boolean }[]>`
          WITH input AS (
            SELECT * FROM unnest(
              ${states.map((state) => state.chainId)}::text[],
              ${states.map((state) => state.blockHash)}::text[],
              ${states.map((state) => state.orphaned)}::boolean[],
              ${states.map((state) => String(state.sequence))}::bigint[],
              ${states.map((state) => state.ancestor?.hash ?? null)}::text[],
              ${states.map((state) => (state.ancestor ? String(state.ancestor.number) : null))}::bigint[]
            ) AS i(chain_id, block_hash, orphaned, sequence, ancestor_hash, ancestor_number)
          ), previous AS (
            SELECT i.chain_id, i.block_hash, coalesce(s.orphaned, false) AS orphaned
            FROM input i
            LEFT JOIN position_block_states s ON s.chain_id = i.chain_id AND s.block_hash = i.block_hash
          ), written AS (
            INSERT INTO position_block_states AS s (chain_id, block_hash, orphaned, sequence, ancestor_hash, ancestor_number)
            SELECT chain_id, block_hash, orphaned, sequence, ancestor_hash, ancestor_number FROM input
            ON CONFLICT (chain_id, block_hash) DO UPDATE SET
              orphaned = excluded.orphaned, sequence = excluded.sequence, ancestor_hash = excluded.ancestor_hash, ancestor_number = excluded.ancestor_number
            WHERE s.sequence < excluded.sequence
            RETURNING s.chain_id, s.block_hash, s.orphaned
          )
          SELECT w.chain_id, w.block_hash, w.orphaned
          FROM written w
          JOIN previous p ON p.chain_id = w.chain_id AND p.block_hash = w.block_hash
          WHERE p.orphaned <> w.orphaned`;
        flippedCount = flipped.length;
        if (flipped.length === 0) return;

        const nowOrphaned = flipped.filter((block) => block.orphaned);
        const replaced: BalanceKey[] = [];
        if (nowOrphaned.length > 0) {
          const stranded = await tx.$queryRaw<{ chain_id: string; wallet: string; asset: string }[]>`
            SELECT o.chain_id, o.wallet, o.asset
            FROM balance_openings o
            JOIN unnest(${nowOrphaned.map((block) => block.chain_id)}::text[], ${nowOrphaned.map((block) => block.block_hash)}::text[]) AS f(chain_id, block_hash)
              ON o.chain_id = f.chain_id AND o.block_hash = f.block_hash`;
          const rereads = new Map(reopened.map((opening) => [balanceKey(opening), opening]));
          const replacements = stranded.map((row) => rereads.get(balanceKey({ chainId: row.chain_id, wallet: row.wallet, asset: row.asset })));
          if (replacements.some((opening) => opening === undefined)) throw new StaleOpening();
          const openings = replacements as Opening[];
          if (openings.length > 0) {
            await tx.$executeRaw`
              UPDATE balance_openings o SET block_hash = r.block_hash, block_number = r.block_number, block_timestamp = r.block_timestamp, amount = r.amount
              FROM unnest(
                ${openings.map((opening) => opening.chainId)}::text[],
                ${openings.map((opening) => opening.wallet)}::text[],
                ${openings.map((opening) => opening.asset)}::text[],
                ${openings.map((opening) => opening.blockHash)}::text[],
                ${openings.map((opening) => String(opening.blockNumber))}::bigint[],
                ${openings.map((opening) => String(opening.blockTimestamp))}::bigint[],
                ${openings.map((opening) => String(opening.amount))}::numeric[]
              ) AS r(chain_id, wallet, asset, block_hash, block_number, block_timestamp, amount)
              WHERE o.chain_id = r.chain_id AND o.wallet = r.wallet AND o.asset = r.asset`;
            replaced.push(...openings);
          }
        }

        const { chains, wallets, assets } = keyArrays(replaced);
        const touched = await tx.$queryRaw<{ chain_id: string; wallet: string; asset: string }[]>`
          WITH flipped AS (
            SELECT * FROM unnest(
              ${flipped.map((block) => block.chain_id)}::text[],
              ${flipped.map((block) => block.block_hash)}::text[],
              ${flipped.map((block) => block.orphaned)}::boolean[]
            ) AS f(chain_id, block_hash, orphaned)
          ), replaced AS (
            SELECT * FROM unnest(${chains}::text[], ${wallets}::text[], ${assets}::text[]) AS r(chain_id, wallet, asset)
          ), deltas AS (
            -- Entries up to a balance's opening are inside it; they still decide its updated block.
            SELECT e.chain_id, e.wallet, e.asset,
              coalesce(sum(CASE WHEN f.orphaned THEN -e.amount ELSE e.amount END) FILTER (WHERE e.block_number > coalesce(o.block_number, -1)), 0) AS amount
            FROM balance_entries e
            JOIN flipped f ON f.chain_id = e.chain_id AND f.block_hash = e.block_hash
            LEFT JOIN balance_openings o ON o.chain_id = e.chain_id AND o.wallet = e.wallet AND o.asset = e.asset
            WHERE NOT EXISTS (SELECT 1 FROM replaced r WHERE r.chain_id = e.chain_id AND r.wallet = e.wallet AND r.asset = e.asset)
            GROUP BY e.chain_id, e.wallet, e.asset
          )
          INSERT INTO wallet_balances AS b (chain_id, wallet, asset, amount, updated_block, updated_at)
          SELECT chain_id, wallet, asset, amount, 0, 0 FROM deltas
          ORDER BY chain_id, wallet, asset
          ON CONFLICT (chain_id, wallet, asset) DO UPDATE SET amount = b.amount + excluded.amount
          RETURNING b.chain_id, b.wallet, b.asset`;
        await recompute(tx, replaced);
        await refreshUpdated(
          tx,
          touched.map((row) => ({ chainId: row.chain_id, wallet: row.wallet, asset: row.asset })),
        );
      });
      return outcome === 'stale-opening' ? { outcome, flipped: 0 } : { outcome: 'applied', flipped: flippedCount };
    },

    async walletBalances(wallet, chainIds) {
      if (chainIds.length === 0) return [];
      const rows = await prisma.$queryRaw<{ chain_id: string; asset: string; amount: string; updated_block: bigint; updated_at: bigint }[]>`
        SELECT chain_id, asset, amount::text AS amount, updated_block, updated_at
        FROM wallet_balances
        WHERE wallet = ${wallet} AND chain_id = ANY(${[...chainIds]}::text[]) AND amount <> 0`;
      return rows.map((row) => ({
        chainId: row.chain_id,
        asset: row.asset,
        amount: BigInt(row.amount),
        updatedBlock: BigInt(row.updated_block),
        updatedAt: BigInt(row.updated_at),
      }));
    },
  };
}
