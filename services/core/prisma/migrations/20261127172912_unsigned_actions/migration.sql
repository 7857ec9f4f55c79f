-- CreateTable
CREATE TABLE "unsigned_actions" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "wallet" TEXT NOT NULL,
    "chain_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "transaction" JSONB NOT NULL,
    "record" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "available_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "signature_approve" TEXT,
    "signature_swap" TEXT,
    "dismissed_at" TIMESTAMPTZ(3),

    CONSTRAINT "unsigned_actions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "unsigned_actions_organization_id_wallet_chain_id_idx" ON "unsigned_actions"("organization_id", "wallet", "chain_id");
