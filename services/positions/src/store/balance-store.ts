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

/** What the block and rollback topics last said about a block: newest sequence wins. */
export interface BlockState {
  chainId: string;
  blockHash: string;
  orphaned: boolean;
  sequence: bigint;
}

export interface WalletBalance {
  chainId: string;
  /** '' for the native asset. */
  asset: string;
  amount: bigint;
  updatedBlock: bigint;
  updatedAt: bigint;
}

export interface BalanceStore {
  /** Records entries not seen before and adds those of blocks not orphaned to the balances. */
  applyEntries(entries: readonly BalanceEntry[]): Promise<void>;
  /**
   * Records block states newer than the stored ones; a block that becomes orphaned takes its
   * entries out of the balances, one that becomes canonical again puts them back.
   */
  applyBlockStates(states: readonly BlockState[]): Promise<void>;
  /** The wallet's non-zero balances on the chains. */
  walletBalances(wallet: string, chainIds: readonly string[]): Promise<WalletBalance[]>;
}

type Transaction = Prisma.TransactionClient;

/**
 * Entries and state changes of one block are serialized by a transaction-scoped advisory lock per
 * block, so an entry and the rollback of its block never both miss each other. Keys are taken in
 * ascending order, so two batches never wait for each other in a cycle.
 */
async function lockBlocks(tx: Transaction, blocks: Iterable<{ chainId: string; blockHash: string }>): Promise<void> {
  const keys = new Set<bigint>();
  for (const { chainId, blockHash } of blocks) keys.add(createHash('sha256').update(`${chainId}:${blockHash}`).digest().readBigInt64BE(0));
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
  if (sorted.length === 0) return;
  await tx.$executeRaw`SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT unnest(${sorted}::bigint[]) AS k ORDER BY k) AS ordered`;
}

/**
 * Sets each balance's updated block and time to its newest entry still counted, and drops the
 * balances no counted entry is left for (their amount is zero then).
 */
async function refreshUpdated(tx: Transaction, balances: readonly { chainId: string; wallet: string; asset: string }[]): Promise<void> {
  if (balances.length === 0) return;
  const chains = balances.map((balance) => balance.chainId);
  const wallets = balances.map((balance) => balance.wallet);
  const assets = balances.map((balance) => balance.asset);
  await tx.$executeRaw`
    WITH affected AS (
      SELECT DISTINCT * FROM unnest(${chains}::text[], ${wallets}::text[], ${assets}::text[]) AS a(chain_id, wallet, asset)
    ), newest AS (
      SELECT a.chain_id, a.wallet, a.asset, e.block_number, e.block_timestamp
      FROM affected a
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

async function inTransaction(prisma: PrismaClient, work: (tx: Transaction) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await prisma.$transaction(work, { timeout: 60_000, maxWait: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3 || !isRetryable(error)) throw error;
    }
  }
}

/**
 * Balances kept exactly (NUMERIC(78,0)) from the balance-change topic, correct across rollbacks
 * and redeliveries: entries are idempotent by the indexer's key, and a block's entries count
 * exactly while the newest word on the block is not a rollback. One transaction per batch.
 */
export function createBalanceStore(prisma: PrismaClient): BalanceStore {
  return {
    async applyEntries(input) {
      const unique = new Map<string, BalanceEntry>();
      for (const entry of input) unique.set(`${entry.chainId}:${entry.blockHash}:${entry.transactionIndex}:${entry.wallet}:${entry.asset}`, entry);
      const entries = [...unique.values()];
      if (entries.length === 0) return;
      await inTransaction(prisma, async (tx) => {
        await lockBlocks(tx, entries);
        await tx.$executeRaw`
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
          ), inserted AS (
            INSERT INTO balance_entries (chain_id, block_hash, transaction_index, wallet, asset, block_number, block_timestamp, amount)
            SELECT * FROM input
            ON CONFLICT DO NOTHING
            RETURNING *
          ), counted AS (
            SELECT i.* FROM inserted i
            LEFT JOIN position_block_states s ON s.chain_id = i.chain_id AND s.block_hash = i.block_hash
            WHERE s.orphaned IS NOT TRUE
          ), deltas AS (
            SELECT chain_id, wallet, asset, sum(amount) AS amount,
              max(block_number) AS updated_block,
              (array_agg(block_timestamp ORDER BY block_number DESC))[1] AS updated_at
            FROM counted
            GROUP BY chain_id, wallet, asset
          )
          INSERT INTO wallet_balances AS b (chain_id, wallet, asset, amount, updated_block, updated_at)
          SELECT chain_id, wallet, asset, amount, updated_block, updated_at FROM deltas
          ORDER BY chain_id, wallet, asset
          ON CONFLICT (chain_id, wallet, asset) DO UPDATE SET
            amount = b.amount + excluded.amount,
            updated_at = CASE WHEN excluded.updated_block >= b.updated_block THEN excluded.updated_at ELSE b.updated_at END,
            updated_block = GREATEST(b.updated_block, excluded.updated_block)`;
      });
    },

    async applyBlockStates(input) {
      const states = newestStates(input);
      if (states.length === 0) return;
      await inTransaction(prisma, async (tx) => {
        await lockBlocks(tx, states);
        // Which blocks change between counted and not: a block with no state yet was counted.
        const flipped = await tx.$queryRaw<{ chain_id: string; block_hash: string; orphaned: boolean }[]>`
          WITH input AS (
            SELECT * FROM unnest(
              ${states.map((state) => state.chainId)}::text[],
              ${states.map((state) => state.blockHash)}::text[],
              ${states.map((state) => state.orphaned)}::boolean[],
              ${states.map((state) => String(state.sequence))}::bigint[]
            ) AS i(chain_id, block_hash, orphaned, sequence)
          ), previous AS (
            SELECT i.chain_id, i.block_hash, coalesce(s.orphaned, false) AS orphaned
            FROM input i
            LEFT JOIN position_block_states s ON s.chain_id = i.chain_id AND s.block_hash = i.block_hash
          ), written AS (
            INSERT INTO position_block_states AS s (chain_id, block_hash, orphaned, sequence)
            SELECT chain_id, block_hash, orphaned, sequence FROM input
            ON CONFLICT (chain_id, block_hash) DO UPDATE SET orphaned = excluded.orphaned, sequence = excluded.sequence
            WHERE s.sequence < excluded.sequence
            RETURNING s.chain_id, s.block_hash, s.orphaned
          )
          SELECT w.chain_id, w.block_hash, w.orphaned
          FROM written w
          JOIN previous p ON p.chain_id = w.chain_id AND p.block_hash = w.block_hash
          WHERE p.orphaned <> w.orphaned`;
        if (flipped.length === 0) return;
        const touched = await tx.$queryRaw<{ chain_id: string; wallet: string; asset: string }[]>`
          WITH flipped AS (
            SELECT * FROM unnest(
              ${flipped.map((block) => block.chain_id)}::text[],
              ${flipped.map((block) => block.block_hash)}::text[],
              ${flipped.map((block) => block.orphaned)}::boolean[]
            ) AS f(chain_id, block_hash, orphaned)
          ), deltas AS (
            SELECT e.chain_id, e.wallet, e.asset, sum(CASE WHEN f.orphaned THEN -e.amount ELSE e.amount END) AS amount
            FROM balance_entries e
            JOIN flipped f ON f.chain_id = e.chain_id AND f.block_hash = e.block_hash
            GROUP BY e.chain_id, e.wallet, e.asset
          )
          INSERT INTO wallet_balances AS b (chain_id, wallet, asset, amount, updated_block, updated_at)
          SELECT chain_id, wallet, asset, amount, 0, 0 FROM deltas
          ORDER BY chain_id, wallet, asset
          ON CONFLICT (chain_id, wallet, asset) DO UPDATE SET amount = b.amount + excluded.amount
          RETURNING b.chain_id, b.wallet, b.asset`;
        await refreshUpdated(
          tx,
          touched.map((row) => ({ chainId: row.chain_id, wallet: row.wallet, asset: row.asset })),
        );
      });
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
