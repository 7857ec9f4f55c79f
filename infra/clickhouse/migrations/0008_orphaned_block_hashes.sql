-- The hashes that a rollback ever declared orphaned, kept apart from block_states as rollbacks are
-- written there. Readers look for orphaned blocks on every query (orphanedBlocks in the code);
-- reading them from block_states read the `orphaned` column of every block of the chain, so the
-- cost of a wallet's history page grew with the chain. This view holds only the few orphaned
-- hashes; their latest state (a block can be revived by a newer ChainBlock) is still decided by
-- argMax over their block_states rows, looked up by primary key.
CREATE MATERIALIZED VIEW IF NOT EXISTS orphaned_block_hashes
ENGINE = ReplacingMergeTree
ORDER BY (chain_id, block_hash)
POPULATE
AS SELECT chain_id, block_hash FROM block_states WHERE orphaned = 1;
