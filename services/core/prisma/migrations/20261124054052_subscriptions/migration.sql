-- CreateTable
CREATE TABLE "tx_subscriptions" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "network" TEXT NOT NULL,
    "addons" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "callback_url" TEXT NOT NULL,
    "chain_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "filters" JSONB,
    "wallets_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tx_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tx_subscription_secrets" (
    "id" BIGSERIAL NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "ciphertext" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "tx_subscription_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tx_subscription_wallets" (
    "subscription_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,

    CONSTRAINT "tx_subscription_wallets_pkey" PRIMARY KEY ("subscription_id","address")
);

-- CreateTable
CREATE TABLE "tx_subscription_changes" (
    "id" BIGSERIAL NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "added" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "removed" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tx_subscription_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "chain_id" TEXT NOT NULL,
    "transaction_hash" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "delivery_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "status_code" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("delivery_id","number")
);

-- CreateTable
CREATE TABLE "subscription_consumer_offsets" (
    "group_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "next_offset" BIGINT NOT NULL,

    CONSTRAINT "subscription_consumer_offsets_pkey" PRIMARY KEY ("group_id","topic","partition")
);

-- CreateTable
CREATE TABLE "subscription_orphaned_blocks" (
    "chain_id" TEXT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_orphaned_blocks_pkey" PRIMARY KEY ("chain_id","block_hash")
);

-- CreateIndex
CREATE INDEX "tx_subscriptions_organization_id_created_at_id_idx" ON "tx_subscriptions"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "tx_subscription_secrets_subscription_id_idx" ON "tx_subscription_secrets"("subscription_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_subscription_id_created_at_idx" ON "webhook_deliveries"("subscription_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_chain_id_block_hash_idx" ON "webhook_deliveries"("chain_id", "block_hash");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_subscription_id_address_chain_id_transac_key" ON "webhook_deliveries"("subscription_id", "address", "chain_id", "transaction_hash", "block_hash", "deleted");
