-- Canonicality of blocks, as the indexer last declared it. A ChainBlock message adds a row with
-- orphaned = 0, a ChainRollback one row with orphaned = 1 per orphaned hash, each with the
-- message's per-chain `sequence`. The state of a hash is the row with the highest sequence
-- (argMax(orphaned, sequence)), so the outcome does not depend on which of the two topics a
-- consumer read first, and a block that becomes canonical again after a rollback is revived by
-- its newer ChainBlock. Every block gets a row (not only orphaned ones) for that reason: a
-- rollback read after the block that undid it must still lose.
-- Readers filter rows of other tables with `(chain_id, block_hash) NOT IN (orphaned hashes)`, so
-- a rollback hides everything derived from a block with one insert here, before any delete.
-- ReplacingMergeTree(sequence) keeps only the newest row per hash once parts merge; queries do
-- not rely on merges.
CREATE TABLE IF NOT EXISTS block_states
(
    chain_id String,
    block_hash String,
    block_number UInt64,
    orphaned UInt8,
    sequence UInt64,
    inserted_at DateTime DEFAULT now()
)
ENGINE = ReplacingMergeTree(sequence)
ORDER BY (chain_id, block_hash);
