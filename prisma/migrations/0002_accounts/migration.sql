-- CreateEnum
CREATE TYPE "Edition" AS ENUM ('basic', 'professional', 'flagship', 'enterprise', 'education');

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('platform_admin', 'individual_developer', 'enterprise_developer', 'engineer_junior', 'engineer_intermediate', 'engineer_senior', 'enterprise_super_admin', 'enterprise_admin', 'enterprise_staff', 'partner', 'consumer', 'contest_participant');

-- CreateEnum
CREATE TYPE "AccountStatus" AS ENUM ('active', 'disabled');

-- CreateEnum
CREATE TYPE "RegistrationMode" AS ENUM ('open', 'invitation', 'paid', 'closed');

-- CreateEnum
CREATE TYPE "SmsPurpose" AS ENUM ('login', 'register', 'reset_password', 'bind_phone');

-- CreateEnum
CREATE TYPE "CertificationStatus" AS ENUM ('pending', 'approved', 'rejected');

-- CreateTable
CREATE TABLE "enterprise" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "logo_url" TEXT,
    "login_background_url" TEXT,
    "registration_mode" "RegistrationMode" NOT NULL DEFAULT 'invitation',
    "strict_password" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "enterprise_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account" (
    "id" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "phone" TEXT,
    "password_hash" TEXT,
    "nickname" TEXT NOT NULL,
    "avatar_url" TEXT,
    "language" TEXT NOT NULL DEFAULT 'zh_hans',
    "roles" "Role"[],
    "status" "AccountStatus" NOT NULL DEFAULT 'active',
    "edition" "Edition" NOT NULL DEFAULT 'basic',
    "edition_expires_at" TIMESTAMP(3),
    "enterprise_id" TEXT,
    "invited_by_id" TEXT,
    "password_changed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),
    "ip" TEXT,
    "user_agent" TEXT,

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invitation_code" (
    "code" TEXT NOT NULL,
    "created_by_id" TEXT,
    "enterprise_id" TEXT,
    "max_uses" INTEGER NOT NULL DEFAULT 1,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitation_code_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "sms_code" (
    "id" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "purpose" "SmsPurpose" NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "consumed_at" TIMESTAMP(3),

    CONSTRAINT "sms_code_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_attempt" (
    "id" BIGSERIAL NOT NULL,
    "account" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wechat_identity" (
    "account_id" TEXT NOT NULL,
    "openid" TEXT NOT NULL,
    "unionid" TEXT,
    "nickname" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wechat_identity_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "oauth_state" (
    "state" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "account_id" TEXT,
    "redirect" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "oauth_state_pkey" PRIMARY KEY ("state")
);

-- CreateTable
CREATE TABLE "app_key" (
    "account_id" TEXT NOT NULL,
    "app_key" TEXT NOT NULL,
    "secret_encrypted" TEXT NOT NULL,
    "secret_hint" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "app_key_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "certification" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "real_name" TEXT NOT NULL,
    "id_number_encrypted" TEXT NOT NULL,
    "id_number_hint" TEXT NOT NULL,
    "avatar_photo_url" TEXT NOT NULL,
    "id_front_url" TEXT NOT NULL,
    "id_back_url" TEXT NOT NULL,
    "certificate_url" TEXT,
    "introduction" TEXT NOT NULL,
    "status" "CertificationStatus" NOT NULL DEFAULT 'pending',
    "reject_reason" TEXT,
    "reviewed_by_id" TEXT,
    "reviewed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "certification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dev_sms_message" (
    "id" BIGSERIAL NOT NULL,
    "phone" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dev_sms_message_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "enterprise_domain_key" ON "enterprise"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "account_account_key" ON "account"("account");

-- CreateIndex
CREATE UNIQUE INDEX "account_phone_key" ON "account"("phone");

-- CreateIndex
CREATE INDEX "account_enterprise_id_idx" ON "account"("enterprise_id");

-- CreateIndex
CREATE INDEX "session_account_id_idx" ON "session"("account_id");

-- CreateIndex
CREATE INDEX "sms_code_phone_created_at_idx" ON "sms_code"("phone", "created_at");

-- CreateIndex
CREATE INDEX "login_attempt_account_created_at_idx" ON "login_attempt"("account", "created_at");

-- CreateIndex
CREATE INDEX "login_attempt_ip_created_at_idx" ON "login_attempt"("ip", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "wechat_identity_openid_key" ON "wechat_identity"("openid");

-- CreateIndex
CREATE UNIQUE INDEX "wechat_identity_unionid_key" ON "wechat_identity"("unionid");

-- CreateIndex
CREATE UNIQUE INDEX "app_key_app_key_key" ON "app_key"("app_key");

-- CreateIndex
CREATE INDEX "certification_account_id_idx" ON "certification"("account_id");

-- CreateIndex
CREATE INDEX "certification_status_created_at_idx" ON "certification"("status", "created_at");

-- CreateIndex
CREATE INDEX "dev_sms_message_phone_created_at_idx" ON "dev_sms_message"("phone", "created_at");

-- AddForeignKey
ALTER TABLE "account" ADD CONSTRAINT "account_enterprise_id_fkey" FOREIGN KEY ("enterprise_id") REFERENCES "enterprise"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wechat_identity" ADD CONSTRAINT "wechat_identity_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_key" ADD CONSTRAINT "app_key_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certification" ADD CONSTRAINT "certification_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

