-- Weekly partitions for the tables that live blocks append to. ClickHouse 18.16's merge selector
-- adds a fixed 5 MiB to every part's size when it weighs a merge, so while a partition is smaller
-- than a few MiB its big part joins every merge of the newest small ones: each merge rewrote the
-- whole current month (on the demo world, 26 days of rows to add a second's worth), and the stack
-- merged 30-40 rows per row it inserted while idle. A week keeps the partition that live inserts
-- touch at seven days at most (a few years of data stay a few hundred partitions). Every table's
-- replacing key lies within one week, so duplicates still meet in one partition.
-- Like 0005, the tables are rebuilt and their rows copied: apply it with the writers stopped.
CREATE TABLE IF NOT EXISTS wallet_transactions_weekly
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
PARTITION BY toMonday(block_timestamp)
ORDER BY (address, chain_id, block_timestamp, block_number, transaction_index, block_hash)
SETTINGS index_granularity = 256;

INSERT INTO wallet_transactions_weekly SELECT * FROM wallet_transactions;
RENAME TABLE wallet_transactions TO wallet_transactions_monthly, wallet_transactions_weekly TO wallet_transactions;
DROP TABLE wallet_transactions_monthly;

CREATE TABLE IF NOT EXISTS balance_changes_weekly
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
PARTITION BY toMonday(block_timestamp)
ORDER BY (address, chain_id, asset_kind, asset_address, token_id, block_timestamp, block_number, transaction_index, block_hash)
SETTINGS index_granularity = 256;

INSERT INTO balance_changes_weekly SELECT * FROM balance_changes;
RENAME TABLE balance_changes TO balance_changes_monthly, balance_changes_weekly TO balance_changes;
DROP TABLE balance_changes_monthly;

CREATE TABLE IF NOT EXISTS pool_events_weekly
(
    chain_id String,
    block_number UInt64,
    block_hash String,
    block_timestamp DateTime,
    transaction_index UInt32,
    log_index UInt32,
    kind UInt8,
    pool String,
    token0 String,
    token1 String,
    reserve0 String,
    reserve1 String,
    sqrt_price_x96 String,
    liquidity String,
    volume0 String,
    volume1 String,
    factory String,
    fee UInt32,
    inserted_at DateTime DEFAULT now()
)
ENGINE = ReplacingMergeTree
PARTITION BY toMonday(block_timestamp)
ORDER BY (chain_id, pool, block_number, log_index, block_hash);

INSERT INTO pool_events_weekly SELECT * FROM pool_events;
RENAME TABLE pool_events TO pool_events_monthly, pool_events_weekly TO pool_events;
DROP TABLE pool_events_monthly;

CREATE TABLE IF NOT EXISTS token_prices_weekly
(
    chain_id String,
    token String,
    day UInt32,
    timestamp DateTime,
    block_number UInt64,
    block_hash String,
    price Float64,
    priced UInt8,
    revision UInt64,
    depth_usd Float64 DEFAULT 0
)
ENGINE = ReplacingMergeTree(revision)
PARTITION BY toMonday(timestamp)
ORDER BY (chain_id, token, day, timestamp, block_number, block_hash);

INSERT INTO token_prices_weekly SELECT * FROM token_prices;
RENAME TABLE token_prices TO token_prices_monthly, token_prices_weekly TO token_prices;
DROP TABLE token_prices_monthly;

CREATE TABLE IF NOT EXISTS token_volumes_weekly
(
    chain_id String,
    token String,
    timestamp DateTime,
    block_number UInt64,
    block_hash String,
    log_index UInt32,
    pool String,
    amount Float64,
    value_usd Float64,
    revision UInt64
)
ENGINE = ReplacingMergeTree(revision)
PARTITION BY toMonday(timestamp)
ORDER BY (chain_id, token, timestamp, block_hash, log_index);

INSERT INTO token_volumes_weekly SELECT * FROM token_volumes;
RENAME TABLE token_volumes TO token_volumes_monthly, token_volumes_weekly TO token_volumes;
DROP TABLE token_volumes_monthly;
