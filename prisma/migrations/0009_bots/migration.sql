-- CreateEnum
CREATE TYPE "BotChannel" AS ENUM ('wechat', 'wecom', 'dingtalk', 'feishu');

-- CreateEnum
CREATE TYPE "BotState" AS ENUM ('deploying', 'to_be_associated', 'online', 'offline', 'expired');

-- CreateTable
CREATE TABLE "bot" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "channel" "BotChannel" NOT NULL,
    "name" TEXT NOT NULL,
    "state" "BotState" NOT NULL DEFAULT 'deploying',
    "state_detail" TEXT,
    "state_changed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "credentials" TEXT NOT NULL DEFAULT '',
    "group_reply" TEXT NOT NULL DEFAULT 'mention',
    "greeting" TEXT NOT NULL DEFAULT '',
    "login_qr" TEXT,
    "login_name" TEXT,
    "paid_until" TIMESTAMP(3) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMP(3),
    "last_seen_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "bot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_schedule" (
    "id" TEXT NOT NULL,
    "bot_id" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "targets" JSONB NOT NULL DEFAULT '[]',
    "send_at" TIMESTAMP(3) NOT NULL,
    "loop" TEXT NOT NULL DEFAULT 'once',
    "every_hours" INTEGER,
    "utc_offset_minutes" INTEGER NOT NULL DEFAULT 480,
    "next_run_at" TIMESTAMP(3),
    "last_run_at" TIMESTAMP(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "bot_schedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_delivery" (
    "id" TEXT NOT NULL,
    "bot_id" TEXT NOT NULL,
    "schedule_id" TEXT,
    "kind" TEXT NOT NULL,
    "occurrence_key" TEXT NOT NULL,
    "target" JSONB NOT NULL,
    "content" TEXT NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'sending',
    "error" TEXT,
    "sent_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "bot_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_conversation" (
    "bot_id" TEXT NOT NULL,
    "session_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "dialogue_id" TEXT,
    "last_message_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bot_conversation_pkey" PRIMARY KEY ("bot_id","session_key")
);

-- CreateTable
CREATE TABLE "bot_inbound" (
    "bot_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bot_inbound_pkey" PRIMARY KEY ("bot_id","external_id")
);

-- CreateTable
CREATE TABLE "bot_event" (
    "id" TEXT NOT NULL,
    "bot_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "read_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bot_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "bot_app_id_key" ON "bot"("app_id");

-- CreateIndex
CREATE INDEX "bot_owner_account_id_created_at_idx" ON "bot"("owner_account_id", "created_at");

-- CreateIndex
CREATE INDEX "bot_lease_until_idx" ON "bot"("lease_until");

-- CreateIndex
CREATE INDEX "bot_schedule_next_run_at_idx" ON "bot_schedule"("next_run_at");

-- CreateIndex
CREATE INDEX "bot_schedule_bot_id_idx" ON "bot_schedule"("bot_id");

-- CreateIndex
CREATE UNIQUE INDEX "bot_delivery_occurrence_key_key" ON "bot_delivery"("occurrence_key");

-- CreateIndex
CREATE INDEX "bot_delivery_bot_id_created_at_idx" ON "bot_delivery"("bot_id", "created_at");

-- CreateIndex
CREATE INDEX "bot_conversation_bot_id_kind_last_message_at_idx" ON "bot_conversation"("bot_id", "kind", "last_message_at");

-- CreateIndex
CREATE INDEX "bot_inbound_received_at_idx" ON "bot_inbound"("received_at");

-- CreateIndex
CREATE INDEX "bot_event_bot_id_created_at_idx" ON "bot_event"("bot_id", "created_at");

-- AddForeignKey
ALTER TABLE "bot" ADD CONSTRAINT "bot_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot" ADD CONSTRAINT "bot_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_schedule" ADD CONSTRAINT "bot_schedule_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_delivery" ADD CONSTRAINT "bot_delivery_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_delivery" ADD CONSTRAINT "bot_delivery_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "bot_schedule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_conversation" ADD CONSTRAINT "bot_conversation_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_event" ADD CONSTRAINT "bot_event_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bot"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: a bot's group reply mode and a schedule's loop are closed sets.
ALTER TABLE "bot" ADD CONSTRAINT "bot_group_reply_valid" CHECK ("group_reply" IN ('mention', 'all'));
ALTER TABLE "bot_schedule" ADD CONSTRAINT "bot_schedule_loop_valid" CHECK ("loop" IN ('once', 'daily', 'weekly', 'hours') AND ("loop" <> 'hours' OR "every_hours" BETWEEN 1 AND 720));
