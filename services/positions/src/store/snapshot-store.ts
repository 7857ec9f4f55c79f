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

export interface SnapshotStore {
  find(wallet: string, chainIds: readonly string[]): Promise<ProtocolSnapshot[]>;
  /**
   * Keeps a read unless one that started later is already stored; the written snapshot is stale
   * when a touch of a block above the read reached the store before it.
   */
  write(snapshot: Omit<ProtocolSnapshot, 'stale'>): Promise<void>;
  /** Marks the wallets' snapshots read below the touching block stale. */
  markTouched(touches: readonly ProtocolTouch[]): Promise<void>;
  /** Marks every snapshot of the chain read above the common ancestor of a reorg stale. */
  markReorganised(chainId: string, commonAncestor: bigint): Promise<void>;
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
      const newest = new Map<string, ProtocolTouch>();
      for (const touch of touches) {
        const key = `${touch.chainId}:${touch.wallet}`;
        const seen = newest.get(key);
        if (!seen || seen.blockNumber < touch.blockNumber) newest.set(key, touch);
      }
      const rows = [...newest.values()].sort((a, b) => (a.chainId + a.wallet < b.chainId + b.wallet ? -1 : 1));
      if (rows.length === 0) return;
      await prisma.$executeRaw`
        UPDATE protocol_snapshots p SET
          stale = p.stale OR t.block_number > p.block_number,
          touched_block = GREATEST(p.touched_block, t.block_number)
        FROM unnest(
          ${rows.map((row) => row.chainId)}::text[],
          ${rows.map((row) => row.wallet)}::text[],
          ${rows.map((row) => String(row.blockNumber))}::bigint[]
        ) AS t(chain_id, wallet, block_number)
        WHERE p.chain_id = t.chain_id AND p.wallet = t.wallet`;
    },

    async markReorganised(chainId, commonAncestor) {
      await prisma.$executeRaw(
        Prisma.sql`UPDATE protocol_snapshots SET stale = true WHERE chain_id = ${chainId} AND block_number > ${String(commonAncestor)}::bigint AND NOT stale`,
      );
    },
  };
}
