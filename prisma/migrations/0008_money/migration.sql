-- CreateEnum
CREATE TYPE "LedgerAccountKind" AS ENUM ('spendable', 'gift', 'frozen', 'platform_revenue', 'platform_promotion', 'escrow', 'tax_withheld', 'payment_clearing', 'payout');

-- CreateEnum
CREATE TYPE "PaymentOrderState" AS ENUM ('pending', 'paid', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "WithdrawalState" AS ENUM ('submitted', 'arrived', 'abnormal');

-- AlterTable
ALTER TABLE "enterprise" ADD COLUMN     "staff_may_withdraw" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "account" ADD COLUMN     "referred_by_id" TEXT;

-- AlterTable
ALTER TABLE "app_use" ADD COLUMN     "purchase_id" TEXT;

-- CreateTable
CREATE TABLE "ledger_account" (
    "id" TEXT NOT NULL,
    "kind" "LedgerAccountKind" NOT NULL,
    "owner_account_id" TEXT,
    "balance_micro" BIGINT NOT NULL DEFAULT 0,
    "kept" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_transaction" (
    "id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "account_id" TEXT,
    "memo" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entry" (
    "id" BIGSERIAL NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "ledger_account_id" TEXT NOT NULL,
    "amount_micro" BIGINT NOT NULL,
    "balance_after_micro" BIGINT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_order" (
    "id" TEXT NOT NULL,
    "account_id" TEXT,
    "purpose" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "amount_micro" BIGINT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "state" "PaymentOrderState" NOT NULL DEFAULT 'pending',
    "provider_trade_no" TEXT,
    "pay_url" TEXT,
    "failure_reason" TEXT,
    "sharer_account_id" TEXT,
    "paid_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payment_order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_notification" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "order_id" TEXT,
    "outcome" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase" (
    "id" TEXT NOT NULL,
    "buyer_account_id" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "app_id" TEXT,
    "plan_id" TEXT,
    "agent_id" TEXT,
    "kind" TEXT NOT NULL,
    "price_micro" BIGINT NOT NULL,
    "starts_at" TIMESTAMP(3),
    "ends_at" TIMESTAMP(3),
    "uses_total" INTEGER,
    "uses_used" INTEGER NOT NULL DEFAULT 0,
    "daily_limit" INTEGER,
    "sharer_account_id" TEXT,
    "ledger_transaction_id" TEXT NOT NULL,
    "refunded_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_use" (
    "id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "basis" TEXT NOT NULL,
    "ledger_transaction_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_use_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "withdrawal" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "real_name" TEXT NOT NULL,
    "id_number_sealed" TEXT NOT NULL,
    "id_number_hint" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "amount_micro" BIGINT NOT NULL,
    "tax_micro" BIGINT NOT NULL,
    "received_micro" BIGINT NOT NULL,
    "state" "WithdrawalState" NOT NULL DEFAULT 'submitted',
    "note" TEXT,
    "reviewed_by_id" TEXT,
    "reviewed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "withdrawal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ledger_account_owner_account_id_idx" ON "ledger_account"("owner_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transaction_idempotency_key_key" ON "ledger_transaction"("idempotency_key");

-- CreateIndex
CREATE INDEX "ledger_transaction_account_id_created_at_idx" ON "ledger_transaction"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_transaction_kind_created_at_idx" ON "ledger_transaction"("kind", "created_at");

-- CreateIndex
CREATE INDEX "ledger_entry_ledger_account_id_id_idx" ON "ledger_entry"("ledger_account_id", "id");

-- CreateIndex
CREATE INDEX "ledger_entry_transaction_id_idx" ON "ledger_entry"("transaction_id");

-- CreateIndex
CREATE INDEX "payment_order_account_id_created_at_idx" ON "payment_order"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "payment_order_state_created_at_idx" ON "payment_order"("state", "created_at");

-- CreateIndex
CREATE INDEX "payment_notification_order_id_idx" ON "payment_notification"("order_id");

-- CreateIndex
CREATE UNIQUE INDEX "purchase_ledger_transaction_id_key" ON "purchase"("ledger_transaction_id");

-- CreateIndex
CREATE INDEX "purchase_buyer_account_id_app_id_created_at_idx" ON "purchase"("buyer_account_id", "app_id", "created_at");

-- CreateIndex
CREATE INDEX "purchase_buyer_account_id_agent_id_idx" ON "purchase"("buyer_account_id", "agent_id");

-- CreateIndex
CREATE INDEX "purchase_sharer_account_id_created_at_idx" ON "purchase"("sharer_account_id", "created_at");

-- CreateIndex
CREATE INDEX "agent_use_agent_id_account_id_created_at_idx" ON "agent_use"("agent_id", "account_id", "created_at");

-- CreateIndex
CREATE INDEX "withdrawal_account_id_created_at_idx" ON "withdrawal"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "withdrawal_state_created_at_idx" ON "withdrawal"("state", "created_at");

-- CreateIndex
CREATE INDEX "account_referred_by_id_idx" ON "account"("referred_by_id");

-- AddForeignKey
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "ledger_transaction"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_ledger_account_id_fkey" FOREIGN KEY ("ledger_account_id") REFERENCES "ledger_account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- A kept balance (a user's wallet) never goes below zero, under any concurrency: the row's update
-- and this check happen together, so a debit that would overdraw fails and its transaction with it.
ALTER TABLE "ledger_account" ADD CONSTRAINT "ledger_account_kept_not_negative" CHECK (NOT "kept" OR "balance_micro" >= 0);
-- A platform account keeps no balance (it is the sum of its entries): nothing to contend on.
ALTER TABLE "ledger_account" ADD CONSTRAINT "ledger_account_unkept_zero" CHECK ("kept" OR "balance_micro" = 0);
-- Entries are never of zero.
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_not_zero" CHECK ("amount_micro" <> 0);

-- The platform's own accounts exist from the start.
INSERT INTO "ledger_account" ("id", "kind", "kept") VALUES
  ('platform_revenue', 'platform_revenue', false),
  ('platform_promotion', 'platform_promotion', false),
  ('escrow', 'escrow', false),
  ('tax_withheld', 'tax_withheld', false),
  ('payment_clearing', 'payment_clearing', false),
  ('payout', 'payout', false);
