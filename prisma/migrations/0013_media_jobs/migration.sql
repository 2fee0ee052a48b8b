-- CreateEnum
CREATE TYPE "MediaSource" AS ENUM ('upload', 'generated');

-- CreateEnum
CREATE TYPE "MediaJobKind" AS ENUM ('image', 'video', 'speech', 'lipsync');

-- CreateEnum
CREATE TYPE "MediaJobState" AS ENUM ('queued', 'generating', 'background', 'done', 'failed', 'failed_review');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "ChannelType" ADD VALUE 'kling';
ALTER TYPE "ChannelType" ADD VALUE 'dashscope';
ALTER TYPE "ChannelType" ADD VALUE 'sdwebui';
ALTER TYPE "ChannelType" ADD VALUE 'comfyui';

-- AlterTable
ALTER TABLE "model" ADD COLUMN     "unit_price_micro" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "media_item" ADD COLUMN     "job_id" TEXT,
ADD COLUMN     "meta" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "source" "MediaSource" NOT NULL DEFAULT 'upload';

-- CreateTable
CREATE TABLE "media_job" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "kind" "MediaJobKind" NOT NULL,
    "state" "MediaJobState" NOT NULL DEFAULT 'queued',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "model_key" TEXT NOT NULL,
    "provider" TEXT,
    "channel_id" TEXT,
    "params" JSONB NOT NULL,
    "provider_task_id" TEXT,
    "provider_state" TEXT,
    "hold_micro" BIGINT NOT NULL,
    "charged_micro" BIGINT NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_detail" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'console',
    "origin_ref" TEXT,
    "app_id" TEXT,
    "callback_token" TEXT NOT NULL,
    "outputs" JSONB NOT NULL DEFAULT '[]',
    "poll_count" INTEGER NOT NULL DEFAULT 0,
    "next_poll_at" TIMESTAMP(3),
    "deadline_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "hidden_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "media_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "media_job_callback_token_key" ON "media_job"("callback_token");

-- CreateIndex
CREATE INDEX "media_job_state_created_at_idx" ON "media_job"("state", "created_at");

-- CreateIndex
CREATE INDEX "media_job_owner_account_id_created_at_idx" ON "media_job"("owner_account_id", "created_at");

-- CreateIndex
CREATE INDEX "media_job_owner_account_id_state_idx" ON "media_job"("owner_account_id", "state");

-- CreateIndex
CREATE INDEX "media_job_provider_provider_task_id_idx" ON "media_job"("provider", "provider_task_id");

-- CreateIndex
CREATE INDEX "media_item_job_id_idx" ON "media_item"("job_id");

-- AddForeignKey
ALTER TABLE "media_item" ADD CONSTRAINT "media_item_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "media_job"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "media_job" ADD CONSTRAINT "media_job_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

