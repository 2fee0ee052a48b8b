// REST transport of first-run setup: the /setup page posts the code and the administrator's account.
import express from "express";
import { handle } from "../http/envelope-response";
import { requestMeta, setSessionCookie } from "../http/auth-context";
import { ZSetupInput } from "./setup.schema";
import { completeSetup } from "./setup.service";

export function createSetupRouter() {
  const router = express.Router();
  router.post(
    "/v1/setup",
    handle(async (req, res) => {
      const { account, session } = await completeSetup(ZSetupInput.parse(req.body), requestMeta(req));
      setSessionCookie(req, res, session);
      return { account };
    }),
  );
  return router;
}
