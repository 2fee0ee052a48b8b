// The sandbox provider: no money moves anywhere, yet an order travels the road a real one does. The
// payer opens the sandbox's cashier page (its pay URL) and pays or cancels there; the sandbox then
// notifies us with a signed body on our notify route, as WeChat Pay does, and answers queries from
// its own books (sandbox-trades.ts), so polling and the stale-order job settle it like any order.
// On only where payment-settings.ts allows it; every screen that offers it says "no real money".
import { AppError } from "../../../errors/app-error";
import { decideTrade, openTrade, readTrade, type TSandboxResult } from "./sandbox-trades";
import { SANDBOX_HEADERS, signSandboxNotification, verifySandboxSignature } from "./sandbox.crypto";
import { fenToMicro, headerOf, microToFen, type TPaymentProvider, type TProviderReport } from "./provider.types";

/** Notifications older or newer than this are refused: a captured one replayed later does nothing. */
const NOTIFY_CLOCK_SKEW_SECONDS = 300;

/** The sandbox's page where the payer pays or cancels (app/routes/money/cashier.tsx). */
export const SANDBOX_CASHIER_PATH = "/cashier";

type TSandboxNotice = {
  id: string;
  event_type: string;
  order_id: string;
  trade_no: string;
  trade_status: TSandboxResult["status"];
  amount_fen: number;
  decided_at: string;
};

/** The notification the sandbox sends for a decided trade: the raw body and its signed headers. */
export function buildSandboxNotification(orderId: string, amountFen: number, result: TSandboxResult, opts: { timestamp?: number } = {}) {
  const notice: TSandboxNotice = {
    id: `${result.trade_no}-${Date.now()}`,
    event_type: result.status === "SUCCESS" ? "TRANSACTION.SUCCESS" : "TRANSACTION.CLOSED",
    order_id: orderId,
    trade_no: result.trade_no,
    trade_status: result.status,
    amount_fen: amountFen,
    decided_at: result.decided_at,
  };
  const body = JSON.stringify(notice);
  return { body, headers: { "content-type": "application/json", ...signSandboxNotification(body, opts) } };
}

const reportOf = (orderId: string, amountFen: number, result: TSandboxResult | null): TProviderReport => ({
  orderId,
  outcome: !result ? "pending" : result.status === "SUCCESS" ? "paid" : "failed",
  providerTradeNo: result?.trade_no ?? null,
  amountMicro: result?.status === "SUCCESS" ? fenToMicro(amountFen) : null,
});

export function createSandboxProvider(): TPaymentProvider {
  return {
    id: "sandbox",

    async createOrder(o) {
      await openTrade(o.orderId, microToFen(o.amountMicro), o.description);
      return { payUrl: `${SANDBOX_CASHIER_PATH}?order_id=${encodeURIComponent(o.orderId)}` };
    },

    parseNotification(req) {
      const body = req.rawBody.toString("utf8");
      const timestamp = headerOf(req.headers, SANDBOX_HEADERS.timestamp);
      const seconds = Number(timestamp);
      const fresh = /^\d{1,12}$/.test(timestamp) && Math.abs(Date.now() / 1000 - seconds) <= NOTIFY_CLOCK_SKEW_SECONDS;
      const signed = verifySandboxSignature({
        timestamp,
        nonce: headerOf(req.headers, SANDBOX_HEADERS.nonce),
        signature: headerOf(req.headers, SANDBOX_HEADERS.signature),
        body,
      });
      if (!fresh || !signed) throw new AppError("payment_signature_invalid");
      let notice: Partial<TSandboxNotice>;
      try {
        notice = JSON.parse(body) as Partial<TSandboxNotice>;
      } catch (err) {
        throw new AppError("payment_signature_invalid", { cause: err });
      }
      const status = notice.trade_status;
      if (
        typeof notice.order_id !== "string" ||
        !notice.order_id ||
        (status !== "SUCCESS" && status !== "CLOSED") ||
        !Number.isSafeInteger(notice.amount_fen) ||
        typeof notice.trade_no !== "string"
      ) {
        throw new AppError("payment_signature_invalid");
      }
      return reportOf(notice.order_id, notice.amount_fen!, { status, trade_no: notice.trade_no, decided_at: String(notice.decided_at ?? "") });
    },

    async queryOrder(orderId) {
      const trade = await readTrade(orderId);
      return trade ? reportOf(orderId, trade.amount_fen, trade.result) : reportOf(orderId, 0, null);
    },

    async closeOrder(orderId) {
      // A trade the payer already paid cannot be closed (as Alipay refuses): the next query credits it.
      if ((await decideTrade(orderId, "CLOSED")).status === "SUCCESS") throw new AppError("payment_provider_unavailable");
    },

    answer(accepted) {
      return { status: accepted ? 200 : 400, contentType: "text/plain", body: accepted ? "success" : "fail" };
    },
  };
}
