// REST for payments. Notifications come from WeChat Pay, Alipay and the sandbox, not browsers: they
// need the raw body for the signature and carry no CSRF token, so their router is mounted ahead of
// /api's body parsers and CSRF check (server/http/api-router.ts). Everything else is the payer's
// or a platform administrator's, in the {status, description, data} envelope.
import express from "express";
import { isAppError } from "../../errors/app-error";
import { logger } from "../../lib/logger";
import { handle } from "../../http/envelope-response";
import { requireAuth, getAuth } from "../../http/auth-context";
import { isPlatformAdmin } from "../../http/request-context";
import { receiveNotification } from "./payment-apply.service";
import { listPaymentsForAdmin, type TPaymentAdmin } from "./payment-admin.service";
import { createTopupOrder, getOrderForAccount, getPaymentOptions, getWalletView, parseTopupRequest } from "./payment-orders.service";
import { getPaymentSettings } from "./payment-settings";
import { ZAdminPaymentsQuery } from "./payments.schema";
import { cancelInSandbox, deliverTo, payInSandbox, type TCashierPayer } from "./sandbox-cashier.service";

export const NOTIFY_PATHS = { wechat: "/v1/pay/wechat/notify", alipay: "/v1/pay/alipay/notify", sandbox: "/v1/pay/sandbox/notify" } as const;

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

/** The cashier's payer: the signed-in account, and the claim a paid registration's page holds. */
async function payerOf(req: express.Request): Promise<TCashierPayer> {
  const claim = (req.body as { claim?: unknown } | undefined)?.claim;
  return { accountId: (await getAuth(req))?.account.id ?? null, claim: typeof claim === "string" ? claim.slice(0, 200) : null };
}

/** Our own notify route on the socket this request came in on: the sandbox notifies the process serving the payer. */
function sandboxNotifyUrl(req: express.Request) {
  const address = req.socket.localAddress ?? "127.0.0.1";
  const host = address.includes(":") ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}/api${NOTIFY_PATHS.sandbox}`;
}

export function createPaymentsRouter() {
  // Bad payment settings (the sandbox asked for on a production configuration) stop the web process at start.
  getPaymentSettings();
  const router = express.Router();
  router.get(
    "/v1/pay/options",
    handle(async (req) => (await requireAuth(req), getPaymentOptions())),
  );
  router.get(
    "/v1/pay/wallet",
    handle(async (req) => getWalletView((await requireAuth(req)).account)),
  );
  router.post(
    "/v1/pay/topup",
    handle(async (req) => createTopupOrder((await requireAuth(req)).account, parseTopupRequest(req.body))),
  );
  router.get(
    "/v1/pay/orders/:id",
    handle(async (req) => getOrderForAccount((await requireAuth(req)).account, req.params.id)),
  );
  router.post(
    "/v1/pay/sandbox/orders/:id/pay",
    handle(async (req) => payInSandbox(await payerOf(req), req.params.id, deliverTo(sandboxNotifyUrl(req)))),
  );
  router.post(
    "/v1/pay/sandbox/orders/:id/cancel",
    handle(async (req) => cancelInSandbox(await payerOf(req), req.params.id, deliverTo(sandboxNotifyUrl(req)))),
  );

  router.get(
    "/v1/admin/payments",
    handle(async (req) => listPaymentsForAdmin(await adminOf(req), ZAdminPaymentsQuery.parse(req.query))),
  );
  return router;
}
