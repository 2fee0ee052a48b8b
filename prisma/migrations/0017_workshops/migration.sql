-- CreateTable
CREATE TABLE "workshop" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "icon_url" TEXT NOT NULL DEFAULT '',
    "definition" JSONB NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "workshop_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workshop_version" (
    "id" TEXT NOT NULL,
    "workshop_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "revision" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workshop_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workshop_run" (
    "id" TEXT NOT NULL,
    "workshop_id" TEXT NOT NULL,
    "version_id" TEXT,
    "definition" JSONB NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "app_id" TEXT,
    "consumer_account_id" TEXT,
    "visitor_id" TEXT,
    "source" TEXT NOT NULL DEFAULT 'debug',
    "topic" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "end_reason" TEXT,
    "node_index" INTEGER NOT NULL DEFAULT 0,
    "node_ends" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "stop_requested" BOOLEAN NOT NULL DEFAULT false,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMP(3),
    "host_calls" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "language" TEXT NOT NULL DEFAULT 'zh_hans',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "workshop_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workshop_message" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "node_index" INTEGER NOT NULL,
    "role_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "instruction" TEXT NOT NULL DEFAULT '',
    "visible_to" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'done',
    "host_calls" INTEGER NOT NULL DEFAULT 0,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "workshop_message_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workshop_owner_account_id_deleted_at_updated_at_idx" ON "workshop"("owner_account_id", "deleted_at", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "workshop_version_workshop_id_number_key" ON "workshop_version"("workshop_id", "number");

-- CreateIndex
CREATE INDEX "workshop_run_workshop_id_created_at_idx" ON "workshop_run"("workshop_id", "created_at");

-- CreateIndex
CREATE INDEX "workshop_run_app_id_consumer_account_id_created_at_idx" ON "workshop_run"("app_id", "consumer_account_id", "created_at");

-- CreateIndex
CREATE INDEX "workshop_run_status_lease_until_idx" ON "workshop_run"("status", "lease_until");

-- CreateIndex
CREATE UNIQUE INDEX "workshop_message_run_id_seq_key" ON "workshop_message"("run_id", "seq");

-- AddForeignKey
ALTER TABLE "workshop" ADD CONSTRAINT "workshop_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workshop_version" ADD CONSTRAINT "workshop_version_workshop_id_fkey" FOREIGN KEY ("workshop_id") REFERENCES "workshop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workshop_run" ADD CONSTRAINT "workshop_run_workshop_id_fkey" FOREIGN KEY ("workshop_id") REFERENCES "workshop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workshop_run" ADD CONSTRAINT "workshop_run_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workshop_run" ADD CONSTRAINT "workshop_run_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workshop_message" ADD CONSTRAINT "workshop_message_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "workshop_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

