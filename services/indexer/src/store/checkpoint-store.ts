import type { PrismaClient } from '@wallet-api/core/db';
import type { Hash } from 'viem';

export interface CheckpointBlock {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  timestamp: bigint;
  sequence: bigint;
}

export interface CheckpointStore {
  /** The newest `limit` blocks published for the chain, ascending. */
  recent(chainId: string, limit: number): Promise<CheckpointBlock[]>;
  /** The highest sequence the chain's messages used, 0 before the first block. */
  lastSequence(chainId: string): Promise<bigint>;
  /** Records blocks whose messages Kafka acknowledged. */
  commit(chainId: string, blocks: readonly CheckpointBlock[]): Promise<void>;
  /** Forgets the blocks above `number` once their rollback is published. */
  rollbackAbove(chainId: string, number: bigint): Promise<void>;
  /** Drops rows below `number`; they are final and no reorg check needs them. */
  pruneBelow(chainId: string, number: bigint): Promise<void>;
}

export function createCheckpointStore(prisma: PrismaClient): CheckpointStore {
  return {
    async recent(chainId, limit) {
      const rows = await prisma.indexedBlock.findMany({ where: { chainId }, orderBy: { number: 'desc' }, take: limit });
      return rows
        .reverse()
        .map((row) => ({ number: row.number, hash: row.hash as Hash, parentHash: row.parentHash as Hash, timestamp: row.timestamp, sequence: row.sequence }));
    },
    async lastSequence(chainId) {
      const result = await prisma.indexedBlock.aggregate({ where: { chainId }, _max: { sequence: true } });
      return result._max.sequence ?? 0n;
    },
    async commit(chainId, blocks) {
      if (blocks.length === 0) return;
      // A height is replaced when a re-indexed branch reaches it again after a crash between a
      // rollback's publication and its deletion here.
      await prisma.$transaction([
        prisma.indexedBlock.deleteMany({ where: { chainId, number: { in: blocks.map((block) => block.number) } } }),
        prisma.indexedBlock.createMany({ data: blocks.map((block) => ({ chainId, ...block })) }),
      ]);
    },
    async rollbackAbove(chainId, number) {
      await prisma.indexedBlock.deleteMany({ where: { chainId, number: { gt: number } } });
    },
    async pruneBelow(chainId, number) {
      await prisma.indexedBlock.deleteMany({ where: { chainId, number: { lt: number } } });
    },
  };
}
