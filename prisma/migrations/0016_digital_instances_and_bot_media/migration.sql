-- AlterTable
ALTER TABLE "bot_schedule" ADD COLUMN     "media_item_id" TEXT;

-- AlterTable
ALTER TABLE "bot_delivery" ADD COLUMN     "media_item_id" TEXT;

-- AlterTable
ALTER TABLE "digital_figure" ADD COLUMN     "consent_file_key" TEXT,
ADD COLUMN     "sale_price_micro" BIGINT;

-- AlterTable
ALTER TABLE "digital_video" ADD COLUMN     "render_inputs" JSONB;

-- CreateTable
CREATE TABLE "digital_instance" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "stop_reason" TEXT,
    "hour_price_micro" BIGINT NOT NULL,
    "hours_billed" INTEGER NOT NULL DEFAULT 0,
    "charged_micro" BIGINT NOT NULL DEFAULT 0,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_active_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "billed_until" TIMESTAMP(3) NOT NULL,
    "stopped_at" TIMESTAMP(3),
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "digital_instance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "digital_instance_file" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "file_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "digital_instance_file_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "digital_instance_state_billed_until_idx" ON "digital_instance"("state", "billed_until");

-- CreateIndex
CREATE INDEX "digital_instance_app_id_started_at_idx" ON "digital_instance"("app_id", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "digital_instance_file_instance_id_file_key_key" ON "digital_instance_file"("instance_id", "file_key");

-- CreateIndex
CREATE INDEX "digital_figure_sale_price_micro_idx" ON "digital_figure"("sale_price_micro");

-- CreateIndex
CREATE UNIQUE INDEX "digital_figure_owner_account_id_purchased_from_id_key" ON "digital_figure"("owner_account_id", "purchased_from_id");

-- AddForeignKey
ALTER TABLE "digital_instance" ADD CONSTRAINT "digital_instance_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "digital_instance" ADD CONSTRAINT "digital_instance_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "digital_instance_file" ADD CONSTRAINT "digital_instance_file_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "digital_instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- At most one running instance per app: two consumers opening the stage at once share it.
CREATE UNIQUE INDEX "digital_instance_one_running_idx" ON "digital_instance"("app_id") WHERE "state" = 'running';
