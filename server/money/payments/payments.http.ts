// REST for payments. Notifications come from WeChat Pay and Alipay, not browsers: they need the
// raw body for the signature and carry no CSRF token, so their router is mounted ahead of /api's
// body parsers and CSRF check (server/http/api-router.ts). Everything else is the signed-in payer's
// or a platform administrator's, in the {status, description, data} envelope.
import express from "express";
import { isAppError } from "../../errors/app-error";
import { logger } from "../../lib/logger";
import { handle } from "../../http/envelope-response";
import { requireAuth, getAuth } from "../../http/auth-context";
import { isPlatformAdmin } from "../../http/request-context";
import { receiveNotification } from "./payment-apply.service";
import { confirmDevPayment, failDevPayment, listPaymentsForAdmin, type TPaymentAdmin } from "./payment-admin.service";
import { createTopupOrder, getOrderForAccount, getPaymentOptions, getWalletView } from "./payment-orders.service";

export const NOTIFY_PATHS = { wechat: "/v1/pay/wechat/notify", alipay: "/v1/pay/alipay/notify" } as const;

export function createPaymentNotifyRouter() {
  const router = express.Router();
  const raw = express.raw({ type: () => true, limit: "64kb" });
  for (const [provider, path] of Object.entries(NOTIFY_PATHS)) {
    router.post(path, raw, (req, res) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      receiveNotification(provider, { headers: req.headers, rawBody }).then(
        ({ answer }) => res.status(answer.status).type(answer.contentType).send(answer.body),
        (err) => {
          // A provider this deployment does not use has no notify address here.
          if (isAppError(err) && err.code === "payment_provider_unavailable") return void res.status(404).type("text/plain").send("fail");
          // Our fault (database down...): an error status makes the provider notify again later.
          logger.error({ err, provider }, "payments: notification could not be processed");
          res.status(500).type("text/plain").send("fail");
        },
      );
    });
  }
  return router;
}

async function adminOf(req: express.Request): Promise<TPaymentAdmin> {
  return { isPlatformAdmin: await isPlatformAdmin(req), accountId: (await getAuth(req))?.account.id ?? null };
}

export function createPaymentsRouter() {
  const router = express.Router();
  router.get("/v1/pay/options", handle(async (req) => (await requireAuth(req), getPaymentOptions())));
  router.get("/v1/pay/wallet", handle(async (req) => getWalletView((await requireAuth(req)).account)));
  router.post("/v1/pay/topup", handle(async (req) => createTopupOrder((await requireAuth(req)).account, req.body)));
  router.get("/v1/pay/orders/:id", handle(async (req) => getOrderForAccount((await requireAuth(req)).account, req.params.id)));

  router.get("/v1/admin/payments", handle(async (req) => listPaymentsForAdmin(await adminOf(req), req.query)));
  router.post("/v1/admin/payments/:id/confirm", handle(async (req) => confirmDevPayment(await adminOf(req), req.params.id)));
  router.post("/v1/admin/payments/:id/fail", handle(async (req) => failDevPayment(await adminOf(req), req.params.id, req.body)));
  return router;
}
