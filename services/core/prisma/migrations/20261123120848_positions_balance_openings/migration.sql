-- AlterTable
ALTER TABLE "position_block_states" ADD COLUMN     "ancestor_hash" TEXT,
ADD COLUMN     "ancestor_number" BIGINT;

-- CreateTable
CREATE TABLE "balance_openings" (
    "chain_id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_timestamp" BIGINT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "balance_openings_pkey" PRIMARY KEY ("chain_id","wallet","asset")
);

-- CreateIndex
CREATE INDEX "balance_openings_chain_id_block_hash_idx" ON "balance_openings"("chain_id", "block_hash");
