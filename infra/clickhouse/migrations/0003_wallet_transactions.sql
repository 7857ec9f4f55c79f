-- One row per (wallet, transaction): the wallet's reading of the transaction (operation type,
-- trash flag, asset types, counterparties, token contracts) as filterable columns, and the whole
-- decoded transaction (`body`: base64 of the protobuf WalletTransaction of proto/events.proto) to
-- render it without another source.
-- The sort key starts with the wallet and ends with the identity (block hash, transaction index),
-- so a wallet's history is one contiguous range read newest first, and the writer's duplicate
-- check is a primary-key lookup. Rows of orphaned blocks stay; readers exclude them through
-- block_states.
-- `token_addresses` holds the asset contracts the transaction moves or approves for the wallet,
-- with '' for the chain's native asset (the events' convention), so a symbol search can match
-- the native asset too.
-- ReplacingMergeTree on the identity would fold a duplicate that slipped past the writer's check
-- (two consumers briefly owning one partition during a rebalance); readers also take one row per
-- identity with LIMIT BY, so even an unmerged duplicate is never shown twice.
CREATE TABLE IF NOT EXISTS wallet_transactions
(
    chain_id String,
    address String,
    block_number UInt64,
    block_hash String,
    block_timestamp DateTime,
    transaction_index UInt32,
    hash String,
    operation_type String,
    is_trash UInt8,
    asset_types Array(String),
    token_addresses Array(String),
    counterparties Array(String),
    body String,
    inserted_at DateTime DEFAULT now()
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(block_timestamp)
ORDER BY (address, chain_id, block_timestamp, block_number, transaction_index, block_hash);
