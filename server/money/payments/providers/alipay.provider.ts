// Alipay page pay (alipay.trade.page.pay): the payer's browser is sent to the gateway with signed
// parameters; Alipay notifies us with a form-encoded, RSA2-signed body and expects "success".
// Queries and closes go through the same gateway, and their answers are signature-checked too.
import { AppError } from "../../../errors/app-error";
import { logger } from "../../../lib/logger";
import type { TAlipaySettings } from "../payment-settings";
import { alipayResponseNode, alipaySignContent, alipayTimestamp, signAlipay, verifyAlipay } from "./alipay.crypto";
import { microToYuanText, yuanTextToMicro, type TPaymentProvider, type TProviderReport } from "./provider.types";

const REQUEST_TIMEOUT_MS = 10_000;
const PAID = new Set(["TRADE_SUCCESS", "TRADE_FINISHED"]);

function outcomeOf(status: string | undefined): TProviderReport["outcome"] {
  return PAID.has(status ?? "") ? "paid" : status === "TRADE_CLOSED" ? "failed" : "pending";
}

export function createAlipayProvider(s: TAlipaySettings): TPaymentProvider {
  function signedParams(method: string, biz: object, extra: Record<string, string> = {}) {
    const params: Record<string, string> = {
      app_id: s.appId,
      method,
      format: "JSON",
      charset: "utf-8",
      sign_type: "RSA2",
      timestamp: alipayTimestamp(),
      version: "1.0",
      ...extra,
      biz_content: JSON.stringify(biz),
    };
    params.sign = signAlipay(alipaySignContent(params, ["sign"]), s.privateKey);
    return params;
  }

  async function call(method: string, biz: object): Promise<Record<string, string>> {
    const node = `${method.replace(/\./g, "_")}_response`;
    let text: string;
    try {
      const res = await fetch(s.gateway, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded;charset=utf-8" },
        body: new URLSearchParams(signedParams(method, biz)),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (err) {
      logger.warn({ err, method }, "alipay: request failed");
      throw new AppError("payment_provider_unavailable", { cause: err });
    }
    const content = alipayResponseNode(text, node);
    const sign = (() => {
      try {
        return String((JSON.parse(text) as { sign?: string }).sign ?? "");
      } catch {
        return "";
      }
    })();
    if (!content || !verifyAlipay(content, sign, s.publicKey)) {
      logger.warn({ method }, "alipay: response signature did not verify");
      throw new AppError("payment_provider_unavailable");
    }
    return JSON.parse(content) as Record<string, string>;
  }

  return {
    id: "alipay",

    async createOrder(o) {
      const extra: Record<string, string> = { notify_url: o.notifyUrl };
      if (o.returnUrl) extra.return_url = o.returnUrl;
      const params = signedParams(
        "alipay.trade.page.pay",
        { out_trade_no: o.orderId, product_code: "FAST_INSTANT_TRADE_PAY", total_amount: microToYuanText(o.amountMicro), subject: o.description.slice(0, 256) },
        extra,
      );
      return { payUrl: `${s.gateway}?${new URLSearchParams(params).toString()}` };
    },

    parseNotification(req) {
      const params = Object.fromEntries(new URLSearchParams(req.rawBody.toString("utf8")));
      // The notification's signature leaves out sign and sign_type (unlike requests).
      if (params.sign_type !== "RSA2" || !verifyAlipay(alipaySignContent(params, ["sign", "sign_type"]), params.sign ?? "", s.publicKey))
        throw new AppError("payment_signature_invalid");
      if (params.app_id !== s.appId || !params.out_trade_no) throw new AppError("payment_signature_invalid");
      return {
        orderId: params.out_trade_no,
        outcome: outcomeOf(params.trade_status),
        providerTradeNo: params.trade_no || null,
        amountMicro: params.total_amount ? yuanTextToMicro(params.total_amount) : null,
      };
    },

    async queryOrder(orderId) {
      const r = await call("alipay.trade.query", { out_trade_no: orderId });
      if (r.code !== "10000") {
        if (r.sub_code === "ACQ.TRADE_NOT_EXIST") return { orderId, outcome: "pending", providerTradeNo: null, amountMicro: null };
        throw new AppError("payment_provider_unavailable");
      }
      if (r.out_trade_no !== orderId) throw new AppError("payment_provider_unavailable");
      return {
        orderId,
        outcome: outcomeOf(r.trade_status),
        providerTradeNo: r.trade_no || null,
        amountMicro: r.total_amount ? yuanTextToMicro(r.total_amount) : null,
      };
    },

    async closeOrder(orderId) {
      const r = await call("alipay.trade.close", { out_trade_no: orderId });
      // A cashier page never opened leaves no trade at Alipay: nothing to close.
      if (r.code !== "10000" && r.sub_code !== "ACQ.TRADE_NOT_EXIST") {
        logger.warn({ orderId, code: r.code, sub_code: r.sub_code }, "alipay: close refused");
        throw new AppError("payment_provider_unavailable");
      }
    },

    answer(accepted) {
      // Anything but the seven characters "success" makes Alipay notify again later.
      return { status: 200, contentType: "text/plain", body: accepted ? "success" : "fail" };
    },
  };
}
