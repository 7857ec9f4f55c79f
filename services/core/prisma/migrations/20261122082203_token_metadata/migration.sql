-- CreateTable
CREATE TABLE "token_metadata" (
    "chain_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "interface" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "symbol_key" TEXT NOT NULL,
    "decimals" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_metadata_pkey" PRIMARY KEY ("chain_id","address")
);

-- CreateIndex
CREATE INDEX "token_metadata_symbol_key_idx" ON "token_metadata"("symbol_key");
