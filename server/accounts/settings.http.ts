import express from "express";
import { handle } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { getEntitlements } from "./entitlements.service";
import { readMultipart } from "../uploads/multipart";
import { AVATAR_LIMITS } from "../uploads/upload-limits";
import { ZUpdateProfileInput } from "./settings.schema";
import { getAppKey, resetAppKey, setAvatar, updateProfile } from "./settings.service";

export function createSettingsRouter() {
  const router = express.Router();
  router.put(
    "/v1/account/profile",
    handle(async (req) => updateProfile((await requireAuth(req)).account.id, ZUpdateProfileInput.parse(req.body))),
  );
  router.post(
    "/v1/account/avatar",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files } = await readMultipart(req, { files: { file: AVATAR_LIMITS.maxBytes }, maxFields: 5 });
      return setAvatar(account.id, files.file?.bytes);
    }),
  );
  router.get(
    "/v1/account/app_key",
    handle(async (req) => getAppKey((await requireAuth(req)).account.id)),
  );
  router.post(
    "/v1/account/app_key/reset",
    handle(async (req) => resetAppKey((await requireAuth(req)).account.id)),
  );
  router.get(
    "/v1/account/entitlements",
    handle(async (req) => getEntitlements((await requireAuth(req)).account.id)),
  );
  return router;
}
