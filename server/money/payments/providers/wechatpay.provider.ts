// WeChat Pay API v3, Native (QR) payments: a signed POST /v3/pay/transactions/native answers the
// code_url the payer scans; WeChat then notifies us with a signed body whose `resource` is
// encrypted with the APIv3 key. Responses are signed too and are checked as notifications are.
import { AppError } from "../../../errors/app-error";
import { logger } from "../../../lib/logger";
import type { TWechatPaySettings } from "../payment-settings";
import { decryptWechatResource, signWechatRequest, verifyWechatSignature } from "./wechatpay.crypto";
import { fenToMicro, headerOf, microToFen, type TNotifyRequest, type TPaymentProvider, type TProviderReport } from "./provider.types";

/** Notifications older or newer than this are refused (a replayed capture of an old one). */
const NOTIFY_CLOCK_SKEW_SECONDS = 300;
const REQUEST_TIMEOUT_MS = 10_000;

type TTransaction = {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number; currency?: string };
};

const FAILED_STATES = new Set(["CLOSED", "REVOKED", "PAYERROR"]);

function reportOf(t: TTransaction): TProviderReport {
  const outcome = t.trade_state === "SUCCESS" ? "paid" : FAILED_STATES.has(t.trade_state ?? "") ? "failed" : "pending";
  return {
    orderId: t.out_trade_no ?? "",
    outcome,
    providerTradeNo: t.transaction_id ?? null,
    amountMicro: typeof t.amount?.total === "number" ? fenToMicro(t.amount.total) : null,
  };
}

export function createWechatPayProvider(s: TWechatPaySettings): TPaymentProvider {
  const verifySigned = (headers: TNotifyRequest["headers"], body: string) =>
    headerOf(headers, "wechatpay-serial") === s.platformSerial &&
    verifyWechatSignature({
      timestamp: headerOf(headers, "wechatpay-timestamp"),
      nonce: headerOf(headers, "wechatpay-nonce"),
      signature: headerOf(headers, "wechatpay-signature"),
      body,
      publicKey: s.platformPublicKey,
    });

  async function call(method: "GET" | "POST", pathWithQuery: string, payload?: object): Promise<{ status: number; json: Record<string, unknown> }> {
    const body = payload ? JSON.stringify(payload) : "";
    const authorization = signWechatRequest({ method, pathWithQuery, body, mchid: s.mchid, serialNo: s.serialNo, privateKey: s.privateKey });
    let res: Response;
    try {
      res = await fetch(`${s.apiBase}${pathWithQuery}`, {
        method,
        headers: { authorization, accept: "application/json", "content-type": "application/json", "user-agent": "zelin-payments" },
        body: payload ? body : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      logger.warn({ err, pathWithQuery }, "wechatpay: request failed");
      throw new AppError("payment_provider_unavailable", { cause: err });
    }
    const text = await res.text();
    const headers = Object.fromEntries(res.headers);
    // A 204 has no body to sign; anything else must be WeChat's own words.
    if (res.status !== 204 && !verifySigned(headers, text)) {
      logger.warn({ status: res.status, pathWithQuery }, "wechatpay: response signature did not verify");
      throw new AppError("payment_provider_unavailable");
    }
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  return {
    id: "wechat",

    async createOrder(o) {
      const { status, json } = await call("POST", "/v3/pay/transactions/native", {
        appid: s.appid,
        mchid: s.mchid,
        description: o.description.slice(0, 127),
        out_trade_no: o.orderId,
        notify_url: o.notifyUrl,
        amount: { total: microToFen(o.amountMicro), currency: "CNY" },
      });
      if (status !== 200 || typeof json.code_url !== "string") {
        logger.warn({ status, code: json.code, message: json.message }, "wechatpay: native order refused");
        throw new AppError("payment_provider_unavailable");
      }
      return { payUrl: json.code_url };
    },

    parseNotification(req) {
      const body = req.rawBody.toString("utf8");
      const timestamp = Number(headerOf(req.headers, "wechatpay-timestamp"));
      const fresh = Number.isFinite(timestamp) && Math.abs(Date.now() / 1000 - timestamp) <= NOTIFY_CLOCK_SKEW_SECONDS;
      if (!fresh || !verifySigned(req.headers, body)) throw new AppError("payment_signature_invalid");
      let transaction: TTransaction;
      try {
        const note = JSON.parse(body) as { resource?: { algorithm?: string; ciphertext: string; nonce: string; associated_data?: string } };
        if (note.resource?.algorithm !== "AEAD_AES_256_GCM") throw new Error("wechatpay: unknown algorithm");
        transaction = JSON.parse(decryptWechatResource(note.resource, s.apiV3Key)) as TTransaction;
      } catch (err) {
        // Signed by WeChat yet not readable with our APIv3 key: someone else's key, or garbage.
        throw new AppError("payment_signature_invalid", { cause: err });
      }
      if (transaction.mchid !== s.mchid || transaction.appid !== s.appid || !transaction.out_trade_no) throw new AppError("payment_signature_invalid");
      return reportOf(transaction);
    },

    async queryOrder(orderId) {
      const { status, json } = await call("GET", `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderId)}?mchid=${encodeURIComponent(s.mchid)}`);
      if (status === 404 || json.code === "ORDER_NOT_EXIST") return { orderId, outcome: "pending", providerTradeNo: null, amountMicro: null };
      if (status !== 200) throw new AppError("payment_provider_unavailable");
      const t = json as TTransaction;
      if (t.out_trade_no !== orderId || t.mchid !== s.mchid) throw new AppError("payment_provider_unavailable");
      return reportOf(t);
    },

    async closeOrder(orderId) {
      const { status, json } = await call("POST", `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderId)}/close`, { mchid: s.mchid });
      if (status !== 204 && status !== 200) {
        logger.warn({ orderId, status, code: json.code }, "wechatpay: close refused");
        throw new AppError("payment_provider_unavailable");
      }
    },

    answer(accepted) {
      // WeChat takes 200/204 as received; anything else is retried on its schedule.
      return accepted
        ? { status: 204, contentType: "text/plain", body: "" }
        : { status: 400, contentType: "application/json", body: JSON.stringify({ code: "FAIL", message: "rejected" }) };
    },
  };
}
