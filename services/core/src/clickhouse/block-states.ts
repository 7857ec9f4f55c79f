import type { ChainRollback } from '../generated/proto/events.js';
import { inList, sql, type SqlFragment } from './sql.js';

/**
 * Hashes of the given chains' blocks whose latest state (by sequence) in `block_states` is
 * orphaned, for `(chain_id, block_hash) NOT IN (...)`. The inner query reads the few hashes a
 * rollback ever named (migration 0008's view), the outer one looks those up by primary key to see
 * whether a newer ChainBlock revived them: neither reads the chain's other blocks.
 */
export function orphanedBlocks(chainIds: readonly string[]): SqlFragment {
  const chains = inList(chainIds);
  return sql`SELECT chain_id, block_hash FROM block_states
    WHERE chain_id IN ${chains}
      AND block_hash IN (SELECT block_hash FROM orphaned_block_hashes WHERE chain_id IN ${chains})
    GROUP BY chain_id, block_hash
    HAVING argMax(orphaned, sequence) = 1`;
}

/**
 * The `block_states` rows of a rollback: one per orphaned hash, orphaned, under the rollback's
 * sequence. Every service that reads through block_states records them itself, so its reads
 * leave the blocks out as soon as it handled the rollback, whoever else is behind.
 */
export function orphanedBlockRows(
  rollback: ChainRollback,
): { chain_id: string; block_hash: string; block_number: string; orphaned: number; sequence: string }[] {
  return rollback.orphanedBlockHashes.map((hash, index) => ({
    chain_id: rollback.chainId,
    block_hash: hash.toLowerCase(),
    block_number: rollback.orphanedBlockNumbers[index] ?? '0',
    orphaned: 1,
    sequence: rollback.sequence,
  }));
}
