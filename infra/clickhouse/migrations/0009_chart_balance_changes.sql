-- The chart service's copy of the balance-change topic (BalanceChange of proto/events.proto) for
-- fungible assets: a wallet's value at any instant is the sum of its changes up to then, times
-- prices. The service owns this table; it never reads the indexer's `balance_changes`.
-- Amounts are exact and summable in SQL: ClickHouse 18.16 has no Int128/Int256 and Decimal128
-- stops at 38 digits, so the signed amount a is split into eight signed 32-bit limbs
-- l_i = sign(a) * ((|a| >> 32 i) & 0xffffffff); a = sum_i l_i * 2^(32 i), and since that is linear,
-- the sums of the limbs over any set of rows give that set's exact total (each Int64 sum holds
-- 2^31 rows of full limbs). The service recombines them as bigints.
-- Sorted by wallet, chain, asset and time: one wallet's points are a range read, each asset's
-- changes in time order. Rows repeat when a message is delivered again; readers take one per
-- (block hash, transaction index) with LIMIT 1 BY, and leave out orphaned blocks through
-- block_states, so no query relies on merges.
CREATE TABLE IF NOT EXISTS chart_balance_changes
(
    address String,
    chain_id String,
    asset String,
    block_timestamp DateTime,
    block_number UInt64,
    block_hash String,
    transaction_index UInt32,
    l0 Int64,
    l1 Int64,
    l2 Int64,
    l3 Int64,
    l4 Int64,
    l5 Int64,
    l6 Int64,
    l7 Int64
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(block_timestamp)
ORDER BY (address, chain_id, asset, block_timestamp, block_number, transaction_index, block_hash);
