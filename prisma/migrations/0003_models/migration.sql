-- CreateEnum
CREATE TYPE "ModelKind" AS ENUM ('text', 'reasoning', 'image', 'video', 'voice', 'embedding', 'rerank', 'other');

-- CreateEnum
CREATE TYPE "ChannelType" AS ENUM ('openai', 'deepseek', 'qwen', 'moonshot', 'zhipu', 'ollama', 'vllm', 'custom');

-- CreateEnum
CREATE TYPE "ChannelState" AS ENUM ('enabled', 'disabled_manual', 'disabled_auto');

-- CreateTable
CREATE TABLE "model" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "kind" "ModelKind" NOT NULL DEFAULT 'text',
    "upstream_model" TEXT NOT NULL,
    "context_window" INTEGER NOT NULL DEFAULT 8192,
    "input_price_micro" INTEGER NOT NULL DEFAULT 0,
    "output_price_micro" INTEGER NOT NULL DEFAULT 0,
    "supports_tools" BOOLEAN NOT NULL DEFAULT false,
    "supports_reasoning" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "ChannelType" NOT NULL,
    "base_url" TEXT NOT NULL,
    "key_encrypted" TEXT NOT NULL,
    "key_hint" TEXT NOT NULL,
    "models" TEXT[],
    "weight" INTEGER NOT NULL DEFAULT 1,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "state" "ChannelState" NOT NULL DEFAULT 'enabled',
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMP(3),
    "owner_account_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_failure" (
    "id" BIGSERIAL NOT NULL,
    "channel_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_failure_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_request_log" (
    "id" BIGSERIAL NOT NULL,
    "request_id" TEXT NOT NULL,
    "model_key" TEXT NOT NULL,
    "account_id" TEXT,
    "attempts" JSONB NOT NULL,
    "final_channel_id" TEXT,
    "ok" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_request_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "model_key_key" ON "model"("key");

-- CreateIndex
CREATE INDEX "channel_state_idx" ON "channel"("state");

-- CreateIndex
CREATE INDEX "channel_owner_account_id_idx" ON "channel"("owner_account_id");

-- CreateIndex
CREATE INDEX "channel_failure_channel_id_created_at_idx" ON "channel_failure"("channel_id", "created_at");

-- CreateIndex
CREATE INDEX "model_request_log_request_id_idx" ON "model_request_log"("request_id");

-- CreateIndex
CREATE INDEX "model_request_log_model_key_created_at_idx" ON "model_request_log"("model_key", "created_at");

-- AddForeignKey
ALTER TABLE "channel_failure" ADD CONSTRAINT "channel_failure_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

