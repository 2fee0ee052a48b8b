-- CreateEnum
CREATE TYPE "AppType" AS ENUM ('h5', 'api', 'bot', 'workshop', 'digital_human');

-- CreateEnum
CREATE TYPE "AppState" AS ENUM ('under_review', 'on_shelf', 'off_shelf', 'removed');

-- CreateEnum
CREATE TYPE "AppStyle" AS ENUM ('conversation', 'qa');

-- CreateEnum
CREATE TYPE "AppMode" AS ENUM ('general', 'sub_account');

-- CreateEnum
CREATE TYPE "AppPlanKind" AS ENUM ('days', 'count');

-- CreateEnum
CREATE TYPE "MarketTargetType" AS ENUM ('app', 'agent');

-- CreateEnum
CREATE TYPE "ReactionKind" AS ENUM ('like', 'collect');

-- CreateEnum
CREATE TYPE "ExportState" AS ENUM ('pending', 'running', 'done', 'failed');

-- DropIndex
DROP INDEX "dialogue_app_id_idx";

-- AlterTable
ALTER TABLE "dialogue" ADD COLUMN     "source" TEXT,
ADD COLUMN     "visitor_id" TEXT,
ALTER COLUMN "account_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "app" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "enterprise_id" TEXT,
    "type" "AppType" NOT NULL,
    "state" "AppState" NOT NULL DEFAULT 'under_review',
    "removed_reason" TEXT,
    "name" TEXT NOT NULL,
    "name_en" TEXT NOT NULL DEFAULT '',
    "icon_url" TEXT NOT NULL,
    "introduction" TEXT NOT NULL DEFAULT '',
    "introduction_en" TEXT NOT NULL DEFAULT '',
    "category_id" INTEGER,
    "tags" TEXT[],
    "platform" TEXT NOT NULL DEFAULT 'web',
    "style" "AppStyle" NOT NULL DEFAULT 'conversation',
    "recommended_questions" JSONB NOT NULL DEFAULT '[]',
    "menu_items" JSONB NOT NULL DEFAULT '[]',
    "input_modes" TEXT[],
    "output_modes" TEXT[],
    "auto_play" BOOLEAN NOT NULL DEFAULT false,
    "speaker" TEXT NOT NULL DEFAULT '',
    "background_url" TEXT,
    "welcome_messages" JSONB NOT NULL DEFAULT '[]',
    "mode" "AppMode" NOT NULL DEFAULT 'general',
    "trial_days" INTEGER NOT NULL DEFAULT 0,
    "free_per_day" INTEGER NOT NULL DEFAULT 0,
    "share_ratio" INTEGER NOT NULL DEFAULT 10,
    "is_public" BOOLEAN NOT NULL DEFAULT true,
    "in_app_centre" BOOLEAN NOT NULL DEFAULT true,
    "input_content" JSONB NOT NULL DEFAULT 'null',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "search_lexemes" tsvector,
    "like_count" INTEGER NOT NULL DEFAULT 0,
    "collect_count" INTEGER NOT NULL DEFAULT 0,
    "comment_count" INTEGER NOT NULL DEFAULT 0,
    "user_count" INTEGER NOT NULL DEFAULT 0,
    "dialogue_count" INTEGER NOT NULL DEFAULT 0,
    "popularity" INTEGER NOT NULL DEFAULT 0,
    "submitted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reviewed_at" TIMESTAMP(3),
    "reviewed_by_id" TEXT,
    "listed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "app_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_agent" (
    "app_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "sort_order" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "app_agent_pkey" PRIMARY KEY ("app_id","agent_id")
);

-- CreateTable
CREATE TABLE "app_plan" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "kind" "AppPlanKind" NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price_micro" BIGINT NOT NULL,
    "daily_limit" INTEGER,
    "sort_order" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "app_plan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_api_key" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "key_hint" TEXT NOT NULL,
    "secret_encrypted" TEXT NOT NULL,
    "rate_per_minute" INTEGER NOT NULL DEFAULT 60,
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "app_api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_use" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "account_id" TEXT,
    "visitor_id" TEXT,
    "source" TEXT NOT NULL,
    "basis" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "dialogue_id" TEXT,
    "api_key_id" TEXT,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_use_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "carousel" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "image_url" TEXT NOT NULL,
    "link" TEXT NOT NULL DEFAULT '',
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "carousel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "follow" (
    "follower_id" TEXT NOT NULL,
    "followee_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "follow_pkey" PRIMARY KEY ("follower_id","followee_id")
);

-- CreateTable
CREATE TABLE "market_reaction" (
    "target_type" "MarketTargetType" NOT NULL,
    "target_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "kind" "ReactionKind" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "market_reaction_pkey" PRIMARY KEY ("target_type","target_id","account_id","kind")
);

-- CreateTable
CREATE TABLE "market_comment" (
    "id" TEXT NOT NULL,
    "target_type" "MarketTargetType" NOT NULL,
    "target_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "parent_id" TEXT,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "market_comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ranking_entry" (
    "list" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "score" BIGINT NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ranking_entry_pkey" PRIMARY KEY ("list","rank")
);

-- CreateTable
CREATE TABLE "app_export" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "filters" JSONB NOT NULL DEFAULT '{}',
    "state" "ExportState" NOT NULL DEFAULT 'pending',
    "row_count" INTEGER NOT NULL DEFAULT 0,
    "file_key" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "app_export_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "app_owner_account_id_created_at_idx" ON "app"("owner_account_id", "created_at");

-- CreateIndex
CREATE INDEX "app_state_in_app_centre_is_public_popularity_idx" ON "app"("state", "in_app_centre", "is_public", "popularity");

-- CreateIndex
CREATE INDEX "app_category_id_state_idx" ON "app"("category_id", "state");

-- CreateIndex
CREATE INDEX "app_search_lexemes_idx" ON "app" USING GIN ("search_lexemes");

-- CreateIndex
CREATE INDEX "app_agent_agent_id_idx" ON "app_agent"("agent_id");

-- CreateIndex
CREATE INDEX "app_plan_app_id_sort_order_idx" ON "app_plan"("app_id", "sort_order");

-- CreateIndex
CREATE UNIQUE INDEX "app_api_key_key_hash_key" ON "app_api_key"("key_hash");

-- CreateIndex
CREATE INDEX "app_api_key_app_id_idx" ON "app_api_key"("app_id");

-- CreateIndex
CREATE INDEX "app_use_app_id_day_idx" ON "app_use"("app_id", "day");

-- CreateIndex
CREATE INDEX "app_use_app_id_account_id_day_idx" ON "app_use"("app_id", "account_id", "day");

-- CreateIndex
CREATE INDEX "app_use_app_id_visitor_id_day_idx" ON "app_use"("app_id", "visitor_id", "day");

-- CreateIndex
CREATE INDEX "app_use_api_key_id_created_at_idx" ON "app_use"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "follow_followee_id_idx" ON "follow"("followee_id");

-- CreateIndex
CREATE INDEX "market_reaction_account_id_kind_created_at_idx" ON "market_reaction"("account_id", "kind", "created_at");

-- CreateIndex
CREATE INDEX "market_comment_target_type_target_id_created_at_idx" ON "market_comment"("target_type", "target_id", "created_at");

-- CreateIndex
CREATE INDEX "market_comment_parent_id_created_at_idx" ON "market_comment"("parent_id", "created_at");

-- CreateIndex
CREATE INDEX "app_export_app_id_created_at_idx" ON "app_export"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "dialogue_app_id_created_at_idx" ON "dialogue"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "dialogue_visitor_id_last_message_at_idx" ON "dialogue"("visitor_id", "last_message_at");

-- AddForeignKey
ALTER TABLE "app" ADD CONSTRAINT "app_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app" ADD CONSTRAINT "app_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "app_category"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_agent" ADD CONSTRAINT "app_agent_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_plan" ADD CONSTRAINT "app_plan_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_api_key" ADD CONSTRAINT "app_api_key_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

