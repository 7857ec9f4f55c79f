-- The USD value of a token held by the trusted pools behind each price row: a fungible's price
-- is the consensus of its chains' prices (reference-data's price oracle), each chain weighted by
-- this depth. Rows written before it read 0, which weighs every chain alike.
ALTER TABLE token_prices ADD COLUMN depth_usd Float64 DEFAULT 0;
