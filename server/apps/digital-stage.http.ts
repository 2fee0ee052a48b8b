// The phone page of a digital-human app: opening its stage (the instance runs) and asking for a
// reply's lip-synced clip. The consumer is the session's account, else the anonymous visitor, as in
// the app's chat. Transport only: the services decide.
import express from "express";
import { handle } from "../http/envelope-response";
import { readConsumer } from "./app-chat.http";
import { openStage } from "./digital-stage.service";
import { requestReplyClip } from "./digital-clips.service";
import { ZClipInput, ZStageInput } from "../digital/app-stage.schema";

export function createAppStageRouter() {
  const router = express.Router();
  router.post(
    "/v2/app/digital/open",
    handle(async (req, res) => openStage(await readConsumer(req, res), ZStageInput.parse(req.body ?? {}).app_id)),
  );
  router.post(
    "/v2/app/digital/clip",
    handle(async (req, res) => requestReplyClip(await readConsumer(req, res), ZClipInput.parse(req.body ?? {}))),
  );
  return router;
}
