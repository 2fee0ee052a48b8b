-- AlterTable
ALTER TABLE "chat_message" ADD COLUMN     "images" JSONB NOT NULL DEFAULT '[]';

