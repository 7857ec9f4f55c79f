-- CreateTable
CREATE TABLE "wallet_balances" (
    "chain_id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "updated_block" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "wallet_balances_pkey" PRIMARY KEY ("chain_id","wallet","asset")
);

-- CreateTable
CREATE TABLE "balance_entries" (
    "chain_id" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "transaction_index" INTEGER NOT NULL,
    "wallet" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_timestamp" BIGINT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "balance_entries_pkey" PRIMARY KEY ("chain_id","block_hash","transaction_index","wallet","asset")
);

-- CreateTable
CREATE TABLE "position_block_states" (
    "chain_id" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "orphaned" BOOLEAN NOT NULL,
    "sequence" BIGINT NOT NULL,

    CONSTRAINT "position_block_states_pkey" PRIMARY KEY ("chain_id","block_hash")
);

-- CreateTable
CREATE TABLE "protocol_snapshots" (
    "chain_id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "positions" JSONB NOT NULL,
    "block_number" BIGINT NOT NULL,
    "read_at" TIMESTAMPTZ(3) NOT NULL,
    "stale" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "protocol_snapshots_pkey" PRIMARY KEY ("chain_id","wallet")
);

-- CreateIndex
CREATE INDEX "wallet_balances_wallet_idx" ON "wallet_balances"("wallet");
