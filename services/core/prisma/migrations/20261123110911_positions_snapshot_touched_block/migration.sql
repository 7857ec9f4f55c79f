-- AlterTable
ALTER TABLE "protocol_snapshots" ADD COLUMN     "touched_block" BIGINT NOT NULL DEFAULT 0;
