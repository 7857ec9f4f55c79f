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
