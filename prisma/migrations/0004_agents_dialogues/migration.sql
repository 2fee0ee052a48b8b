-- CreateEnum
CREATE TYPE "AgentVersionState" AS ENUM ('draft', 'under_review', 'on_shelf', 'removed', 'published', 'upgraded', 'invalid');

-- CreateEnum
CREATE TYPE "MessageRole" AS ENUM ('user', 'assistant');

-- CreateEnum
CREATE TYPE "MessageStatus" AS ENUM ('streaming', 'done', 'stopped', 'failed', 'censored');

-- CreateEnum
CREATE TYPE "Feedback" AS ENUM ('none', 'liked', 'disliked');

-- AlterTable
ALTER TABLE "model_request_log" ADD COLUMN     "completion_tokens" INTEGER,
ADD COLUMN     "first_chunk_ms" INTEGER,
ADD COLUMN     "prompt_tokens" INTEGER,
ADD COLUMN     "total_ms" INTEGER;

-- CreateTable
CREATE TABLE "agent" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "enterprise_id" TEXT,
    "name" TEXT NOT NULL,
    "avatar_url" TEXT,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "invalid_reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_version" (
    "id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "state" "AgentVersionState" NOT NULL DEFAULT 'draft',
    "config" JSONB NOT NULL,
    "update_note" TEXT NOT NULL DEFAULT '',
    "removed_reason" TEXT,
    "submitted_at" TIMESTAMP(3),
    "reviewed_at" TIMESTAMP(3),
    "reviewed_by_id" TEXT,
    "published_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "agent_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dialogue" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT,
    "agent_version_id" TEXT,
    "app_id" TEXT,
    "title" TEXT NOT NULL,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "document_id" TEXT,
    "last_message_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "dialogue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_message" (
    "id" TEXT NOT NULL,
    "dialogue_id" TEXT NOT NULL,
    "role" "MessageRole" NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "reasoning" TEXT NOT NULL DEFAULT '',
    "functions" JSONB NOT NULL DEFAULT '[]',
    "retrieve" JSONB NOT NULL DEFAULT '[]',
    "status" "MessageStatus" NOT NULL DEFAULT 'done',
    "feedback" "Feedback" NOT NULL DEFAULT 'none',
    "replaces_id" TEXT,
    "request_id" TEXT,
    "model_key" TEXT,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_document" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "chars" INTEGER NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_document_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_owner_account_id_sort_order_idx" ON "agent"("owner_account_id", "sort_order");

-- CreateIndex
CREATE INDEX "agent_version_agent_id_created_at_idx" ON "agent_version"("agent_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_version_state_submitted_at_idx" ON "agent_version"("state", "submitted_at");

-- CreateIndex
CREATE INDEX "dialogue_account_id_last_message_at_idx" ON "dialogue"("account_id", "last_message_at");

-- CreateIndex
CREATE INDEX "dialogue_agent_id_idx" ON "dialogue"("agent_id");

-- CreateIndex
CREATE INDEX "dialogue_app_id_idx" ON "dialogue"("app_id");

-- CreateIndex
CREATE INDEX "chat_message_dialogue_id_created_at_idx" ON "chat_message"("dialogue_id", "created_at");

-- CreateIndex
CREATE INDEX "chat_document_account_id_created_at_idx" ON "chat_document"("account_id", "created_at");

-- AddForeignKey
ALTER TABLE "agent" ADD CONSTRAINT "agent_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_version" ADD CONSTRAINT "agent_version_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dialogue" ADD CONSTRAINT "dialogue_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dialogue" ADD CONSTRAINT "dialogue_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_message" ADD CONSTRAINT "chat_message_dialogue_id_fkey" FOREIGN KEY ("dialogue_id") REFERENCES "dialogue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

