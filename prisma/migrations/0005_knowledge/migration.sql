-- CreateEnum
CREATE TYPE "TrainingSetType" AS ENUM ('standard', 'smart', 'database');

-- CreateEnum
CREATE TYPE "TrainingSetState" AS ENUM ('training', 'done', 'failed', 'stopped', 'disabled');

-- CreateEnum
CREATE TYPE "TrainingDocumentState" AS ENUM ('pending', 'indexing', 'done', 'failed');

-- CreateEnum
CREATE TYPE "MediaKind" AS ENUM ('image', 'video');

-- AlterEnum
ALTER TYPE "ChannelType" ADD VALUE 'offline';

-- AlterTable
ALTER TABLE "account" ADD COLUMN     "knowledge_paused_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "training_set" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "enterprise_id" TEXT,
    "name" TEXT NOT NULL,
    "introduction" TEXT NOT NULL DEFAULT '',
    "type" "TrainingSetType" NOT NULL,
    "state" "TrainingSetState" NOT NULL DEFAULT 'done',
    "progress" INTEGER NOT NULL DEFAULT 100,
    "char_count" INTEGER NOT NULL DEFAULT 0,
    "failure_reason" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "indexed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "training_set_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "qa_item" (
    "id" TEXT NOT NULL,
    "training_set_id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "qa_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "training_document" (
    "id" TEXT NOT NULL,
    "training_set_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "file_key" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "char_count" INTEGER NOT NULL DEFAULT 0,
    "state" "TrainingDocumentState" NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "training_document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "knowledge_passage" (
    "id" TEXT NOT NULL,
    "training_set_id" TEXT NOT NULL,
    "qa_item_id" TEXT,
    "document_id" TEXT,
    "ordinal" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "lexemes" tsvector,
    "embedding" DOUBLE PRECISION[],
    "embedding_model" TEXT,

    CONSTRAINT "knowledge_passage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "database_source" (
    "training_set_id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "port" INTEGER NOT NULL DEFAULT 3306,
    "username" TEXT NOT NULL,
    "password_encrypted" TEXT NOT NULL,
    "database" TEXT NOT NULL,
    "ddl" TEXT NOT NULL,
    "verified_at" TIMESTAMP(3),
    "verify_error" TEXT,

    CONSTRAINT "database_source_pkey" PRIMARY KEY ("training_set_id")
);

-- CreateTable
CREATE TABLE "media_item" (
    "id" TEXT NOT NULL,
    "owner_account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "file_key" TEXT,
    "mime" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "media_item_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "training_set_owner_account_id_created_at_idx" ON "training_set"("owner_account_id", "created_at");

-- CreateIndex
CREATE INDEX "qa_item_training_set_id_position_idx" ON "qa_item"("training_set_id", "position");

-- CreateIndex
CREATE INDEX "training_document_training_set_id_created_at_idx" ON "training_document"("training_set_id", "created_at");

-- CreateIndex
CREATE INDEX "knowledge_passage_training_set_id_ordinal_idx" ON "knowledge_passage"("training_set_id", "ordinal");

-- CreateIndex
CREATE INDEX "knowledge_passage_qa_item_id_idx" ON "knowledge_passage"("qa_item_id");

-- CreateIndex
CREATE INDEX "knowledge_passage_lexemes_idx" ON "knowledge_passage" USING GIN ("lexemes");

-- CreateIndex
CREATE INDEX "media_item_owner_account_id_created_at_idx" ON "media_item"("owner_account_id", "created_at");

-- AddForeignKey
ALTER TABLE "training_set" ADD CONSTRAINT "training_set_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "qa_item" ADD CONSTRAINT "qa_item_training_set_id_fkey" FOREIGN KEY ("training_set_id") REFERENCES "training_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "training_document" ADD CONSTRAINT "training_document_training_set_id_fkey" FOREIGN KEY ("training_set_id") REFERENCES "training_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledge_passage" ADD CONSTRAINT "knowledge_passage_training_set_id_fkey" FOREIGN KEY ("training_set_id") REFERENCES "training_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "database_source" ADD CONSTRAINT "database_source_training_set_id_fkey" FOREIGN KEY ("training_set_id") REFERENCES "training_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "media_item" ADD CONSTRAINT "media_item_owner_account_id_fkey" FOREIGN KEY ("owner_account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- pgvector where the server offers it (the embedded PGlite loads it; a plain PostgreSQL may not
-- have it installed): vector search then runs in SQL over "embedding"::vector, else in the app.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pgvector is available but this role may not create it; vector search runs in the app';
END $$;
