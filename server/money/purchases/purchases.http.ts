// Buying and refunding over REST (the {status, description, data} envelope): the offer a plan
// sheet or /detail shows, buying an app's plan or an agent (signed in), and an administrator's
// purchase list and refund. touser rides in the body or, as api-client appends it, the query.
import express, { type Request } from "express";
import { AppError } from "../../errors/app-error";
import { getAuth, requireAuth } from "../../http/auth-context";
import { handle } from "../../http/envelope-response";
import { isPlatformAdmin } from "../../http/request-context";
import { buyAgent, buyAppPlan, getOffer } from "./purchases.service";
import { ZBuyAgentInput, ZBuyAppPlanInput, ZListPurchasesQuery, ZOfferQuery } from "./purchases.schema";
import { listPurchasesForAdmin, refundPurchase } from "./refunds.service";

function withTouser(req: Request) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const touser = body.touser ?? req.query.touser;
  return { ...body, touser: typeof touser === "string" ? touser : undefined };
}

async function requireAdmin(req: Request) {
  if (!(await isPlatformAdmin(req))) throw new AppError("no_permission");
  return (await getAuth(req))?.account ?? null;
}

export function createPurchasesRouter() {
  const router = express.Router();
  router.get(
    "/v2/purchase/offer",
    handle(async (req) =>
      getOffer(
        (await getAuth(req))?.account ?? null,
        ZOfferQuery.parse({ ...(req.query.app_id ? { app_id: req.query.app_id } : { agent_id: req.query.agent_id }) }),
      ),
    ),
  );
  router.post(
    "/v2/purchase/app_plan",
    handle(async (req) => buyAppPlan((await requireAuth(req)).account, ZBuyAppPlanInput.parse(withTouser(req)))),
  );
  router.post(
    "/v2/purchase/agent",
    handle(async (req) => buyAgent((await requireAuth(req)).account, ZBuyAgentInput.parse(withTouser(req)))),
  );
  router.get(
    "/v1/admin/purchases",
    handle(async (req) => {
      await requireAdmin(req);
      return listPurchasesForAdmin(ZListPurchasesQuery.parse(req.query));
    }),
  );
  router.post(
    "/v1/admin/purchases/:id/refund",
    handle(async (req) => refundPurchase(await requireAdmin(req), req.params.id)),
  );
  return router;
}
