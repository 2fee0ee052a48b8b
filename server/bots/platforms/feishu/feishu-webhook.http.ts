// Feishu's calls to a bot's event URL (/api/v1/bots/:botId/feishu, webhook mode): mounted ahead of
// the body parsers and the CSRF check (Feishu is not a browser; the token and signature are the
// check), with the body read raw because the signature covers its exact bytes.
import express from "express";
import { logger } from "../../../lib/logger";

// The callback's handling, and with it the Lark SDK (some 50 MB of a web process's heap once
// loaded), is loaded by the first Feishu call: most web processes never receive one.
const loadCallbacks = () => import("./feishu-callback.service");

export const FEISHU_CALLBACK_PATH = "/v1/bots/:botId/feishu";

export function createFeishuWebhookRouter() {
  const router = express.Router();
  router.post(FEISHU_CALLBACK_PATH, express.raw({ type: () => true, limit: "256kb" }), (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    loadCallbacks()
      .then(({ answerFeishuCallback }) => answerFeishuCallback(req.params.botId, req.headers, rawBody))
      .then(
        (a) => res.status(a.status).json(a.body),
        (err) => {
          // Our fault (database or queue down): an error status makes Feishu call again.
          logger.error({ err, botId: req.params.botId }, "feishu: callback could not be processed");
          res.status(500).json({ msg: "error" });
        },
      );
  });
  return router;
}
