// REST for membership (/upgrade, /mobi/upgrade) and paid registration (/registered), in the
// envelope. Thin: the services decide.
import express from "express";
import { handle } from "../../http/envelope-response";
import { requestMeta, requireAuth, setSessionCookie } from "../../http/auth-context";
import { buyEditionFromWallet, createEditionOrder, getMembership } from "./editions.service";
import { completeRegistration, createRegistrationOrder, getRegistrationOrder, getRegistrationTerms } from "./registration.service";

function domainOf(body: unknown): string | undefined {
  const domain = (body as { domain?: unknown } | null)?.domain;
  return typeof domain === "string" && domain ? domain : undefined;
}

export function createEditionsRouter() {
  const router = express.Router();
  router.get("/v1/editions/membership", handle(async (req) => getMembership((await requireAuth(req)).account.id)));
  router.post("/v1/editions/buy", handle(async (req) => buyEditionFromWallet((await requireAuth(req)).account.id, req.body)));
  router.post("/v1/editions/order", handle(async (req) => createEditionOrder((await requireAuth(req)).account.id, req.body)));

  router.get("/v1/auth/register/terms", handle(async (req) => getRegistrationTerms({ enterpriseDomain: domainOf(req.query) })));
  // touser rides on every API call's query (SPEC 7): the sharer who brought this registration.
  router.post("/v1/auth/register/order", handle(async (req) => createRegistrationOrder(req.body, requestMeta(req), { enterpriseDomain: domainOf(req.body), touser: req.query.touser })));
  router.get("/v1/auth/register/order", handle(async (req) => getRegistrationOrder(String(req.query.id ?? ""), String(req.query.claim ?? ""))));
  router.post(
    "/v1/auth/register/complete",
    handle(async (req, res) => {
      const { account, session } = await completeRegistration(req.body, requestMeta(req));
      setSessionCookie(req, res, session);
      return { account };
    }),
  );
  return router;
}
