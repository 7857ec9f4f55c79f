-- On-chain prices (reference-data). Every table's rows carry the hash of the block they derive
-- from, and readers exclude orphaned hashes through block_states, so a rollback hides them with
-- no delete. Rows that a rollback's refold computes again get a higher `revision`; readers take
-- the highest revision of a key, so queries never rely on merges.

-- PoolEvent messages (proto/events.proto) as they arrived, whoever's pool: the consumer folds the
-- trusted ones into prices and restarts its pool states from here (latest canonical row per pool).
-- Amounts are exact decimals (uint112 / uint160 / uint128 overflow every 18.16 integer type).
CREATE TABLE IF NOT EXISTS pool_events
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
PARTITION BY toYYYYMM(block_timestamp)
ORDER BY (chain_id, pool, block_number, log_index, block_hash);

-- Price history at minute resolution: a row when a token's price changed (the last change of a
-- minute within a consumer batch), `priced` = 0 when it lost its price, and on the first folded
-- block of each UTC day (`day` = days since 1970) a row for every priced token. The price at time
-- t is the newest row at or before t within the day of the chain's newest day mark at or before t
-- (price_days): that day's first block wrote every price, and no block came between the day's end
-- and t. So a lookup reads at most one day of one token.
CREATE TABLE IF NOT EXISTS token_prices
(
    chain_id String,
    token String,
    day UInt32,
    timestamp DateTime,
    block_number UInt64,
    block_hash String,
    price Float64,
    priced UInt8,
    revision UInt64
)
ENGINE = ReplacingMergeTree(revision)
PARTITION BY toYYYYMM(timestamp)
ORDER BY (chain_id, token, day, timestamp, block_number, block_hash);

-- One row per chain and day with folded blocks: the block that wrote the day's full price set.
CREATE TABLE IF NOT EXISTS price_days
(
    chain_id String,
    day UInt32,
    timestamp DateTime,
    block_number UInt64,
    block_hash String,
    revision UInt64
)
ENGINE = ReplacingMergeTree(revision)
ORDER BY (chain_id, day, block_hash);

-- What each swap in a trusted pool moved of each of its tokens, valued at the token's price
-- after the swap's block: the 24-hour volume is their sum.
CREATE TABLE IF NOT EXISTS token_volumes
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
PARTITION BY toYYYYMM(timestamp)
ORDER BY (chain_id, token, timestamp, block_hash, log_index);
