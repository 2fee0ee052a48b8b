-- AlterEnum
ALTER TYPE "AgentVersionState" ADD VALUE 'published_in_review';

-- AlterTable
ALTER TABLE "app" ADD COLUMN     "removed_at" TIMESTAMP(3);

