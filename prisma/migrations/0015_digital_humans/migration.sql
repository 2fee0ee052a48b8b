-- CreateEnum
CREATE TYPE "DigitalFigureKind" AS ENUM ('green_screen', 'trained');

-- CreateEnum
CREATE TYPE "DigitalFigureState" AS ENUM ('checking', 'check_failed', 'ready', 'training', 'train_failed');

-- CreateEnum
CREATE TYPE "DigitalVoiceState" AS ENUM ('checking', 'check_failed', 'training', 'ready', 'train_failed');

-- AlterEnum
ALTER TYPE "ModelKind" ADD VALUE 'lipsync';

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "ChannelType" ADD VALUE 'heygen';
ALTER TYPE "ChannelType" ADD VALUE 'heygem';

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "MediaJobKind" ADD VALUE 'avatar_training';
ALTER TYPE "MediaJobKind" ADD VALUE 'voice_clone';

-- CreateTable
CREATE TABLE "digital_figure" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "DigitalFigureKind" NOT NULL DEFAULT 'green_screen',
    "state" "DigitalFigureState" NOT NULL DEFAULT 'checking',
    "source_file_key" TEXT NOT NULL,
    "greeting_file_key" TEXT,
    "check" JSONB NOT NULL DEFAULT '{}',
    "orientation" TEXT NOT NULL DEFAULT 'vertical',
    "key_color" TEXT NOT NULL DEFAULT '#00ff00',
    "key_similarity" INTEGER NOT NULL DEFAULT 30,
    "key_blend" INTEGER NOT NULL DEFAULT 10,
    "loop_file_key" TEXT,
    "poster_file_key" TEXT,
    "training_job_id" TEXT,
    "provider" TEXT,
    "provider_avatar_id" TEXT,
    "purchased_from_id" TEXT,
    "error_code" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "digital_figure_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "digital_voice" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sample_kind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sample_file_key" TEXT NOT NULL,
    "duration_ms" INTEGER,
    "loudness_lufs" DOUBLE PRECISION,
    "peak_db" DOUBLE PRECISION,
    "check" JSONB NOT NULL DEFAULT '{}',
    "state" "DigitalVoiceState" NOT NULL DEFAULT 'checking',
    "training_job_id" TEXT,
    "provider" TEXT,
    "model_key" TEXT,
    "provider_voice_id" TEXT,
    "package_id" TEXT,
    "error_code" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "digital_voice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "voice_package" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "slots" INTEGER NOT NULL,
    "used_slots" INTEGER NOT NULL DEFAULT 0,
    "price_micro" BIGINT NOT NULL,
    "ledger_key" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "voice_package_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "digital_video" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "orientation" TEXT NOT NULL DEFAULT 'vertical',
    "figure_id" TEXT,
    "placement" JSONB NOT NULL DEFAULT '{"x":0.5,"y":0.55,"scale":0.9}',
    "background_item_id" TEXT,
    "background_color" TEXT NOT NULL DEFAULT '#ffffff',
    "voice" TEXT NOT NULL DEFAULT '',
    "script" TEXT NOT NULL DEFAULT '',
    "render_state" "MediaJobState",
    "render_step" TEXT,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "speech_job_id" TEXT,
    "lipsync_job_id" TEXT,
    "output_item_id" TEXT,
    "error_code" TEXT,
    "error_detail" TEXT,
    "render_started_at" TIMESTAMP(3),
    "rendered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "digital_video_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "digital_figure_training_job_id_key" ON "digital_figure"("training_job_id");

-- CreateIndex
CREATE INDEX "digital_figure_owner_account_id_created_at_idx" ON "digital_figure"("owner_account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "digital_voice_training_job_id_key" ON "digital_voice"("training_job_id");

-- CreateIndex
CREATE INDEX "digital_voice_owner_account_id_created_at_idx" ON "digital_voice"("owner_account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "voice_package_ledger_key_key" ON "voice_package"("ledger_key");

-- CreateIndex
CREATE INDEX "voice_package_account_id_expires_at_idx" ON "voice_package"("account_id", "expires_at");

-- CreateIndex
CREATE INDEX "digital_video_owner_account_id_created_at_idx" ON "digital_video"("owner_account_id", "created_at");

-- AddForeignKey
ALTER TABLE "digital_figure" ADD CONSTRAINT "digital_figure_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "digital_voice" ADD CONSTRAINT "digital_voice_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voice_package" ADD CONSTRAINT "voice_package_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "digital_video" ADD CONSTRAINT "digital_video_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

