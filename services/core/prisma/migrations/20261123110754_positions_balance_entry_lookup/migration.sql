-- CreateIndex
CREATE INDEX "balance_entries_chain_id_wallet_asset_block_number_idx" ON "balance_entries"("chain_id", "wallet", "asset", "block_number");
