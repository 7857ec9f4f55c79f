-- CreateTable
CREATE TABLE "indexed_blocks" (
    "chain_id" TEXT NOT NULL,
    "number" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "parent_hash" TEXT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "sequence" BIGINT NOT NULL,
    "indexed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "indexed_blocks_pkey" PRIMARY KEY ("chain_id","number")
);
