// REST for membership (/upgrade, /mobi/upgrade), in the envelope. Thin: the services decide. Paid
// registration (/registered) is a registration: auth/auth.http.ts.
import express from "express";
import { handle } from "../../http/envelope-response";
import { requireAuth } from "../../http/auth-context";
import { ZBuyEditionInput, ZEditionOrderInput } from "./editions.schema";
import { buyEditionFromWallet, createEditionOrder, getMembership } from "./editions.service";

export function createEditionsRouter() {
  const router = express.Router();
  router.get(
    "/v1/editions/membership",
    handle(async (req) => getMembership((await requireAuth(req)).account.id)),
  );
  router.post(
    "/v1/editions/buy",
    handle(async (req) => buyEditionFromWallet((await requireAuth(req)).account.id, ZBuyEditionInput.parse(req.body))),
  );
  router.post(
    "/v1/editions/order",
    handle(async (req) => createEditionOrder((await requireAuth(req)).account.id, ZEditionOrderInput.parse(req.body))),
  );
  return router;
}
