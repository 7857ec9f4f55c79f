-- CreateTable
CREATE TABLE "nft_transfer_entries" (
    "chain_id" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "transaction_index" INTEGER NOT NULL,
    "wallet" TEXT NOT NULL,
    "contract" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "standard" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_timestamp" BIGINT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "nft_transfer_entries_pkey" PRIMARY KEY ("chain_id","block_hash","transaction_index","wallet","contract","token_id")
);

-- CreateTable
CREATE TABLE "nft_block_states" (
    "chain_id" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "orphaned" BOOLEAN NOT NULL,
    "sequence" BIGINT NOT NULL,
    "block_number" BIGINT,
    "block_timestamp" BIGINT,
    "ancestor_hash" TEXT,
    "ancestor_number" BIGINT,

    CONSTRAINT "nft_block_states_pkey" PRIMARY KEY ("chain_id","block_hash")
);

-- CreateTable
CREATE TABLE "nft_wallet_openings" (
    "chain_id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_timestamp" BIGINT NOT NULL,
    "read_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "nft_wallet_openings_pkey" PRIMARY KEY ("chain_id","wallet")
);

-- CreateTable
CREATE TABLE "nft_opening_holdings" (
    "chain_id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "contract" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "standard" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "changed_at" BIGINT NOT NULL,

    CONSTRAINT "nft_opening_holdings_pkey" PRIMARY KEY ("chain_id","wallet","contract","token_id")
);

-- CreateTable
CREATE TABLE "nft_tokens" (
    "chain_id" TEXT NOT NULL,
    "contract" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "standard" TEXT NOT NULL,
    "metadata_state" TEXT NOT NULL DEFAULT 'pending',
    "metadata" JSONB,
    "uri" TEXT NOT NULL DEFAULT '',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "nft_tokens_pkey" PRIMARY KEY ("chain_id","contract","token_id")
);

-- CreateTable
CREATE TABLE "nft_collections" (
    "id" SERIAL NOT NULL,
    "chain_id" TEXT NOT NULL,
    "contract" TEXT NOT NULL,
    "standard" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "symbol" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "icon_url" TEXT NOT NULL DEFAULT '',
    "banner_url" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "nft_collections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "nft_market_events" (
    "chain_id" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_timestamp" BIGINT NOT NULL,
    "market" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "listing_id" DECIMAL(78,0) NOT NULL,
    "contract" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "price" DECIMAL(78,0) NOT NULL,
    "seller" TEXT NOT NULL,
    "buyer" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "nft_market_events_pkey" PRIMARY KEY ("chain_id","block_hash","log_index")
);

-- CreateIndex
CREATE INDEX "nft_transfer_entries_chain_id_wallet_block_number_idx" ON "nft_transfer_entries"("chain_id", "wallet", "block_number");

-- CreateIndex
CREATE INDEX "nft_transfer_entries_chain_id_contract_token_id_block_numbe_idx" ON "nft_transfer_entries"("chain_id", "contract", "token_id", "block_number");

-- CreateIndex
CREATE INDEX "nft_block_states_chain_id_block_number_idx" ON "nft_block_states"("chain_id", "block_number");

-- CreateIndex
CREATE INDEX "nft_wallet_openings_chain_id_block_hash_idx" ON "nft_wallet_openings"("chain_id", "block_hash");

-- CreateIndex
CREATE INDEX "nft_tokens_metadata_state_next_attempt_at_idx" ON "nft_tokens"("metadata_state", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "nft_collections_chain_id_contract_key" ON "nft_collections"("chain_id", "contract");

-- CreateIndex
CREATE INDEX "nft_market_events_chain_id_contract_token_id_idx" ON "nft_market_events"("chain_id", "contract", "token_id");
