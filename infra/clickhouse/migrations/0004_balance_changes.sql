-- The net effect of one transaction on one wallet's holding of one asset (BalanceChange of
-- proto/events.proto), signed, in base units.
-- The amount is kept twice. `amount` is the exact signed decimal: token amounts are uint256 and
-- overflow every numeric type ClickHouse 18.16 has (Int128/Int256 do not exist there, Decimal128
-- stops at 38 digits while spam tokens move 2^256-1), so exact totals (PnL's FIFO lots) are
-- summed from it as bigints in the service. `amount_float` is the same value as Float64 for sums
-- in SQL (chart series, portfolio totals): 15 to 16 significant digits are more than any price
-- they are multiplied by, and a sum of floats never overflows.
-- Sorted by wallet, chain and asset, then time, so a chart or a balance is a range read per asset
-- in time order; the identity (block hash, transaction index) ends the key for the writer's
-- duplicate check and the same LIMIT BY guard readers use on wallet_transactions. Orphaned
-- blocks' rows are excluded through block_states.
CREATE TABLE IF NOT EXISTS balance_changes
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
ORDER BY (address, chain_id, asset_kind, asset_address, token_id, block_timestamp, block_number, transaction_index, block_hash);
