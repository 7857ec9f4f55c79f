-- `legs`: base64 of the protobuf WalletLegs (proto/events.proto) of the row's wallet, what a PnL
-- replay reads of the transaction: its fungibles netted per asset, the fee it paid, NFTs in or
-- out. A replay streams this column alone: a third of `body`'s size for a swap, and no addresses
-- to compare. Rows stored before it are '' and read from `body` instead.
-- One statement (18.16 has no ADD COLUMN IF NOT EXISTS), so it is applied and recorded or neither.
ALTER TABLE wallet_transactions ADD COLUMN legs String DEFAULT '';
