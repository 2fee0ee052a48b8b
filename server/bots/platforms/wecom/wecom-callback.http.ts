// WeCom's calls to a bot's callback URL (/api/v1/bots/:botId/wecom): mounted ahead of the body
// parsers and the CSRF check (WeCom is not a browser; the signature is the check), with the body
// read raw for the signature.
import express from "express";
import { logger } from "../../../lib/logger";
import { answerWecomCallback, answerWecomVerification, type TWecomAnswer } from "./wecom-callback.service";

export const WECOM_CALLBACK_PATH = "/v1/bots/:botId/wecom";

export function createWecomCallbackRouter() {
  const router = express.Router();
  const send = (res: express.Response, a: TWecomAnswer) => res.status(a.status).type("text/plain").send(a.body);
  const fail = (res: express.Response, botId: string) => (err: unknown) => {
    // Our fault (database or queue down): an error status makes WeCom call again.
    logger.error({ err, botId }, "wecom: callback could not be processed");
    res.status(500).type("text/plain").send("error");
  };

  router.get(WECOM_CALLBACK_PATH, (req, res) => {
    answerWecomVerification(req.params.botId, req.query).then((a) => send(res, a), fail(res, req.params.botId));
  });

  router.post(WECOM_CALLBACK_PATH, express.text({ type: () => true, limit: "256kb" }), (req, res) => {
    const body = typeof req.body === "string" ? req.body : "";
    answerWecomCallback(req.params.botId, req.query, body).then((a) => send(res, a), fail(res, req.params.botId));
  });
  return router;
}
