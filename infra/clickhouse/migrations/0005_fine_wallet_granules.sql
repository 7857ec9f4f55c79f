-- A wallet's rows are a few hundred among millions, but the default index granularity (8192 rows)
-- makes every history page decompress whole granules of the wide `body` column: under load the
-- transactions endpoint was bound by ClickHouse reading other wallets' bodies. 256-row granules
-- keep a page's reads close to its own rows. Granularity cannot be altered in place, so both
-- per-wallet tables are rebuilt with the same columns and keys and their rows copied over; apply
-- it with the indexer stopped, or rows written between the copy and the rename are lost.
CREATE TABLE IF NOT EXISTS wallet_transactions_fine
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
ORDER BY (address, chain_id, block_timestamp, block_number, transaction_index, block_hash)
SETTINGS index_granularity = 256;

INSERT INTO wallet_transactions_fine SELECT * FROM wallet_transactions;

RENAME TABLE wallet_transactions TO wallet_transactions_coarse, wallet_transactions_fine TO wallet_transactions;

DROP TABLE wallet_transactions_coarse;

CREATE TABLE IF NOT EXISTS balance_changes_fine
(
    chain_id String,
    address String,
    asset_kind String,
    asset_address String,
    token_id String,
    block_number UInt64,
    block_hash String,
    block_timestamp DateTime,
    transaction_hash String,
    transaction_index UInt32,
    amount String,
    amount_float Float64,
    inserted_at DateTime DEFAULT now()
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(block_timestamp)
ORDER BY (address, chain_id, asset_kind, asset_address, token_id, block_timestamp, block_number, transaction_index, block_hash)
SETTINGS index_granularity = 256;

INSERT INTO balance_changes_fine SELECT * FROM balance_changes;

RENAME TABLE balance_changes TO balance_changes_coarse, balance_changes_fine TO balance_changes;

DROP TABLE balance_changes_coarse;
