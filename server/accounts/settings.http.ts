import express from "express";
import { handle } from "../http/envelope-response";
import { requestMeta, requireAuth } from "../http/auth-context";
import { bindPhone } from "../auth/phone-binding.service";
import { getEntitlements } from "./entitlements.service";
import { getAppKey, resetAppKey, updateProfile } from "./settings.service";

export function createSettingsRouter() {
  const router = express.Router();
  router.put("/v1/account/profile", handle(async (req) => updateProfile((await requireAuth(req)).account.id, req.body)));
  router.get("/v1/account/app_key", handle(async (req) => getAppKey((await requireAuth(req)).account.id)));
  router.post("/v1/account/app_key/reset", handle(async (req) => resetAppKey((await requireAuth(req)).account.id)));
  router.get("/v1/account/entitlements", handle(async (req) => getEntitlements((await requireAuth(req)).account.id)));
  router.post("/v1/account/phone", handle(async (req) => bindPhone((await requireAuth(req)).account.id, req.body, requestMeta(req))));
  return router;
}
