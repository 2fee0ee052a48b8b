-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "system_setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "system_setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "screen_lock_item" (
    "id" SERIAL NOT NULL,
    "img_name" TEXT NOT NULL,
    "img_url" TEXT NOT NULL,
    "screen_control" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "screen_lock_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "process_heartbeat" (
    "name" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "seen_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "process_heartbeat_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "app_category" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "names" JSONB NOT NULL,
    "sort_order" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_category_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "app_category_slug_key" ON "app_category"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "app_category_sort_order_key" ON "app_category"("sort_order");

