// REST under /api/v1 and /api/v2: the {status, description, data} envelope.
import express from "express";
import { AppError } from "../errors/app-error";
import { bodyErrors, JSON_BODY_LIMIT, jsonBody } from "./json-body";
import { getT } from "../i18n/translate";
import { getLicenceStatus } from "../platform/licence.service";
import { ZSetScreenLockInput } from "../platform/platform.schema";
import { getScreenLock, getSystemConfig, setScreenLock } from "../platform/platform.service";
import { handle, sendError } from "./envelope-response";
import { getRequestLanguage, isPlatformAdmin } from "./request-context";
import { verifyCsrf } from "./csrf";
import { createAuthRouter } from "../auth/auth.http";
import { createSetupRouter } from "../platform/setup.http";
import { createWechatRouter } from "../auth/wechat/wechat.http";
import { createSettingsRouter } from "../accounts/settings.http";
import { createUploadsRouter } from "../uploads/uploads.http";
import { createCertificationRouter } from "../accounts/certification.http";
import { createContentRouter } from "../content/content.http";
import { createModelsRouter } from "../models/models.http";
import { createChatRouter } from "../turns/chat.http";
import { createAppChatRouter } from "../apps/app-chat.http";
import { createWorkshopRunsRouter } from "../workshops/runs.http";
import { createWorkshopContentsRouter } from "../workshops/contents.http";
import { createWorkshopAppRunsRouter } from "../apps/workshop-app-runs.http";
import { createAppStageRouter } from "../apps/digital-stage.http";
import { createAppVoiceRouter } from "../apps/app-voice.http";
import { createDatabaseSetsRouter } from "../knowledge/database/database-sets.http";
import { createOwnChannelsRouter } from "../models/own-channels.http";
import { createMediaRouter } from "../media/media.http";
import { createFiguresRouter } from "../digital/figures.http";
import { createVoicesRouter } from "../digital/voices.http";
import { probeMediaChannel } from "../media/channel-probe";
import { createMediaCallbackRouter, createMediaJobsRouter } from "../media/media-jobs.http";
import { createTrainingSetsRouter } from "../knowledge/training-sets.http";
import { createAppExportRouter } from "../apps/app-export.http";
import { wireTurnDependencies } from "../wiring/turn-dependencies";
import { createPaymentNotifyRouter, createPaymentsRouter } from "../money/payments/payments.http";
import { createStatementsRouter } from "../money/statements/statements.http";
import { createWithdrawalsRouter } from "../money/withdrawals/withdrawals.http";
import { createPurchasesRouter } from "../money/purchases/purchases.http";
import { createEditionsRouter } from "../money/editions/editions.http";
import { createWecomCallbackRouter } from "../bots/platforms/wecom/wecom-callback.http";
import { createFeishuWebhookRouter } from "../bots/platforms/feishu/feishu-webhook.http";

export function createApiRouter() {
  // The chats served here run turns in this process.
  wireTurnDependencies();
  const router = express.Router();
  // Payment providers' notifications: raw bodies for their signatures, no CSRF (they are not browsers).
  router.use(createPaymentNotifyRouter());
  // Chat platforms' callbacks to bots: signed by the platform, no CSRF, their own body parsing.
  router.use(createWecomCallbackRouter());
  router.use(createFeishuWebhookRouter());
  // Media providers' callbacks: their own body parsing, no CSRF; the URL's token names the job.
  router.use(createMediaCallbackRouter());
  router.use(jsonBody());
  router.use(express.urlencoded({ extended: true, limit: JSON_BODY_LIMIT }));
  router.use(bodyErrors);
  router.use(verifyCsrf);
  router.use(createAuthRouter());
  router.use(createSetupRouter());
  router.use(createWechatRouter());
  router.use(createSettingsRouter());
  router.use(createUploadsRouter());
  router.use(createCertificationRouter());
  router.use(createContentRouter());
  router.use(createModelsRouter({ probeMediaChannel }));
  router.use(createChatRouter());
  router.use(createAppChatRouter());
  router.use(createWorkshopRunsRouter());
  router.use(createWorkshopContentsRouter());
  router.use(createWorkshopAppRunsRouter());
  router.use(createAppStageRouter());
  router.use(createAppVoiceRouter());
  router.use(createDatabaseSetsRouter());
  router.use(createOwnChannelsRouter({ probeMediaChannel }));
  router.use(createMediaRouter());
  router.use(createFiguresRouter());
  router.use(createVoicesRouter());
  router.use(createMediaJobsRouter());
  router.use(createTrainingSetsRouter());
  router.use(createAppExportRouter());
  router.use(createPaymentsRouter());
  router.use(createStatementsRouter());
  router.use(createWithdrawalsRouter());
  router.use(createPurchasesRouter());
  router.use(createEditionsRouter());

  router.get("/v1/account/version_check", (req, res) => {
    const licence = getLicenceStatus();
    const t = getT(getRequestLanguage(req), "errors");
    const description = licence.status === 10001 ? t("licence_expiring") : licence.status === 10002 ? t("licence_expired") : "success";
    const period = { start_time: licence.start_time, end_time: licence.end_time };
    // Clients read the validity range from `message`; `data` carries the same and more.
    res.json({
      status: licence.status,
      description,
      message: period,
      data: { ...period, state: licence.state, days_left: licence.days_left, contact_phone: licence.contact_phone },
    });
  });

  router.get(
    "/v1/system/config",
    handle(() => getSystemConfig()),
  );
  router.get(
    "/v1/system/screen_lock",
    handle(() => getScreenLock()),
  );

  router.put(
    "/v1/admin/screen_lock",
    handle(async (req) => {
      if (!(await isPlatformAdmin(req))) throw new AppError("no_permission");
      return setScreenLock(ZSetScreenLockInput.parse(req.body).items);
    }),
  );

  router.use((req, res) => sendError(req, res, new AppError("not_found")));
  return router;
}
