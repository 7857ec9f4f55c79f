import { Prisma, type PrismaClient } from '@wallet-api/core/db';
import { parseProtocolPositions, serializeProtocolPositions, type ProtocolPosition } from '../adapters/protocol-position.js';

export interface ProtocolSnapshot {
  chainId: string;
  wallet: string;
  positions: ProtocolPosition[];
  blockNumber: bigint;
  readAt: Date;
  /** The wallet touched a protocol contract (or the chain reorganised) after the read. */
  stale: boolean;
}

export interface ProtocolTouch {
  chainId: string;
  wallet: string;
  blockNumber: bigint;
}

/** A pool or vault whose state moved at a block: the positions in it are worth other amounts now. */
export interface PoolMove {
  chainId: string;
  /** Lowercase address, as positions carry it in `poolAddress`. */
  pool: string;
  blockNumber: bigint;
}

/** A wallet's snapshot on one chain. */
export interface SnapshotKey {
  chainId: string;
  wallet: string;
}

export interface SnapshotStore {
  find(wallet: string, chainIds: readonly string[]): Promise<ProtocolSnapshot[]>;
  /**
   * Keeps a read unless one that started later is already stored; the written snapshot is stale
   * when a touch of a block above the read reached the store before it.
   */
  write(snapshot: Omit<ProtocolSnapshot, 'stale'>): Promise<void>;
  /** Marks the wallets' snapshots read below the touching block stale; answers the snapshots marked. */
  markTouched(touches: readonly ProtocolTouch[]): Promise<SnapshotKey[]>;
  /** Marks stale every snapshot read below a move of a pool it has a position in; answers the snapshots marked. */
  markPoolsMoved(moves: readonly PoolMove[]): Promise<SnapshotKey[]>;
  /** Marks every snapshot of the chain read above the common ancestor of a reorg stale. */
  markReorganised(chainId: string, commonAncestor: bigint): Promise<void>;
}

/** One item per key, the one of the highest block: a batch names a wallet or pool many times. */
function newestOf<T extends { blockNumber: bigint }>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const newest = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    const seen = newest.get(key);
    if (!seen || seen.blockNumber < item.blockNumber) newest.set(key, item);
  }
  return [...newest.values()];
}

export function createSnapshotStore(prisma: PrismaClient): SnapshotStore {
  return {
    async find(wallet, chainIds) {
      if (chainIds.length === 0) return [];
      const rows = await prisma.protocolSnapshot.findMany({ where: { wallet, chainId: { in: [...chainIds] } } });
      return rows.map((row) => ({
        chainId: row.chainId,
        wallet: row.wallet,
        positions: parseProtocolPositions(row.positions),
        blockNumber: row.blockNumber,
        readAt: row.readAt,
        stale: row.stale,
      }));
    },

    async write(snapshot) {
      const positions = JSON.stringify(serializeProtocolPositions(snapshot.positions));
      await prisma.$executeRaw`
        INSERT INTO protocol_snapshots AS p (chain_id, wallet, positions, block_number, read_at, stale, touched_block)
        VALUES (${snapshot.chainId}, ${snapshot.wallet}, ${positions}::jsonb, ${String(snapshot.blockNumber)}::bigint, ${snapshot.readAt}, false, 0)
        ON CONFLICT (chain_id, wallet) DO UPDATE SET
          positions = excluded.positions,
          block_number = excluded.block_number,
          read_at = excluded.read_at,
          stale = p.touched_block > excluded.block_number
        WHERE p.read_at <= excluded.read_at`;
    },

    async markTouched(touches) {
      const rows = newestOf(touches, (touch) => `${touch.chainId}:${touch.wallet}`).sort((a, b) => (a.chainId + a.wallet < b.chainId + b.wallet ? -1 : 1));
      if (rows.length === 0) return [];
      const marked = await prisma.$queryRaw<{ chain_id: string; wallet: string; moved: boolean }[]>`
        UPDATE protocol_snapshots p SET
          stale = p.stale OR t.block_number > p.block_number,
          touched_block = GREATEST(p.touched_block, t.block_number)
        FROM unnest(
          ${rows.map((row) => row.chainId)}::text[],
          ${rows.map((row) => row.wallet)}::text[],
          ${rows.map((row) => String(row.blockNumber))}::bigint[]
        ) AS t(chain_id, wallet, block_number)
        WHERE p.chain_id = t.chain_id AND p.wallet = t.wallet
        RETURNING p.chain_id, p.wallet, t.block_number > p.block_number AS moved`;
      return marked.filter((row) => row.moved).map((row) => ({ chainId: row.chain_id, wallet: row.wallet }));
    },

    async markPoolsMoved(moves) {
      const rows = newestOf(moves, (move) => `${move.chainId}:${move.pool}`);
      if (rows.length === 0) return [];
      // Every snapshot with a position in a moved pool, read below the move; touched_block keeps a
      // read that started before the move but is written after it stale too.
      const marked = await prisma.$queryRaw<{ chain_id: string; wallet: string }[]>`
        WITH moved AS (
          SELECT p.chain_id, p.wallet, max(t.block_number) AS block_number
          FROM unnest(
            ${rows.map((row) => row.chainId)}::text[],
            ${rows.map((row) => row.pool)}::text[],
            ${rows.map((row) => String(row.blockNumber))}::bigint[]
          ) AS t(chain_id, pool, block_number)
          JOIN protocol_snapshots p ON p.chain_id = t.chain_id AND p.block_number < t.block_number
          WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(p.positions) e WHERE lower(e->>'poolAddress') = t.pool)
          GROUP BY p.chain_id, p.wallet
        )
        UPDATE protocol_snapshots p SET stale = true, touched_block = GREATEST(p.touched_block, moved.block_number)
        FROM moved
        WHERE p.chain_id = moved.chain_id AND p.wallet = moved.wallet
        RETURNING p.chain_id, p.wallet`;
      return marked.map((row) => ({ chainId: row.chain_id, wallet: row.wallet }));
    },

    async markReorganised(chainId, commonAncestor) {
      await prisma.$executeRaw(
        Prisma.sql`UPDATE protocol_snapshots SET stale = true WHERE chain_id = ${chainId} AND block_number > ${String(commonAncestor)}::bigint AND NOT stale`,
      );
    },
  };
}
