-- CreateTable
CREATE TABLE "rate_window" (
    "key" TEXT NOT NULL,
    "window_start" BIGINT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rate_window_pkey" PRIMARY KEY ("key","window_start")
);

-- CreateIndex
CREATE INDEX "rate_window_expires_at_idx" ON "rate_window"("expires_at");

