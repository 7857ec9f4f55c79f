-- Block headers seen by the indexer, one row per (chain, height, hash): a reorg adds a row with
-- the new hash at the same height instead of overwriting, so both branches stay queryable until
-- the indexer decides which one is canonical. ReplacingMergeTree folds exact re-inserts of the
-- same block (retries, replays) into one row at merge time.
CREATE TABLE IF NOT EXISTS chain_blocks
(
    chain_id String,
    number UInt64,
    hash String,
    parent_hash String,
    timestamp DateTime,
    inserted_at DateTime DEFAULT now()
)
ENGINE = ReplacingMergeTree
ORDER BY (chain_id, number, hash);
