// A loopback stand-in for WeChat Pay API v3 (api.mch.weixin.qq.com), Native payments: it checks
// the merchant's request signatures with the merchant's public key, answers code_url, order
// queries and closes signed with its own platform key, and plays the payer: `pay()` (or
// POST /__fake/pay) marks the trade paid and sends our notify_url a notification signed with the
// platform key and encrypted with the APIv3 key (AEAD_AES_256_GCM), exactly as WeChat does.
// Keys come from the test (crypto.generateKeyPairSync); nothing here is shared with our code.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TFakeWechatTrade = {
  out_trade_no: string;
  appid: string;
  mchid: string;
  description: string;
  notify_url: string;
  total: number;
  trade_state: "NOTPAY" | "SUCCESS" | "CLOSED" | "PAYERROR";
  transaction_id: string | null;
  code_url: string;
};

export type TWechatMerchant = { mchid: string; appid: string; serialNo: string; privateKeyPem: string; publicKeyPem: string; apiV3Key: string };

/** A merchant's keys, as the merchant platform would issue them. */
export function makeWechatMerchant(over: Partial<TWechatMerchant> = {}): TWechatMerchant {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    mchid: "1900000109",
    appid: "wxd678efh567hg6787",
    serialNo: crypto.randomBytes(20).toString("hex").toUpperCase(),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    apiV3Key: crypto.randomBytes(16).toString("hex"),
    ...over,
  };
}

function parseAuthorization(header: string) {
  const m = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header);
  if (!m) return null;
  const fields: Record<string, string> = {};
  for (const part of m[1].matchAll(/(\w+)="([^"]*)"/g)) fields[part[1]] = part[2];
  return fields;
}

export async function startFakeWechatPay(merchant: TWechatMerchant) {
  const platform = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const platformSerial = `PUB_KEY_ID_${crypto.randomBytes(12).toString("hex").toUpperCase()}`;
  const platformPublicKeyPem = platform.publicKey.export({ type: "spki", format: "pem" }).toString();
  const trades = new Map<string, TFakeWechatTrade>();
  const requests: Array<{ method: string; path: string; signed: boolean }> = [];

  const signBody = (body: string, timestamp = Math.floor(Date.now() / 1000), nonce = crypto.randomBytes(16).toString("hex")) => ({
    "Wechatpay-Timestamp": String(timestamp),
    "Wechatpay-Nonce": nonce,
    "Wechatpay-Signature": crypto.createSign("RSA-SHA256").update(`${timestamp}\n${nonce}\n${body}\n`).sign(platform.privateKey, "base64"),
    "Wechatpay-Serial": platformSerial,
    "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048",
  });
  const reply = (res: http.ServerResponse, status: number, payload?: object) => {
    const body = payload ? JSON.stringify(payload) : "";
    res.writeHead(status, { "content-type": "application/json", "request-id": crypto.randomUUID(), ...signBody(body) });
    res.end(body);
  };
  const transactionOf = (t: TFakeWechatTrade) => ({
    appid: t.appid,
    mchid: t.mchid,
    out_trade_no: t.out_trade_no,
    transaction_id: t.transaction_id ?? undefined,
    trade_type: "NATIVE",
    trade_state: t.trade_state,
    trade_state_desc: t.trade_state === "SUCCESS" ? "支付成功" : t.trade_state,
    bank_type: "OTHERS",
    success_time: t.trade_state === "SUCCESS" ? new Date().toISOString() : undefined,
    payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" },
    amount: { total: t.total, payer_total: t.total, currency: "CNY", payer_currency: "CNY" },
  });

  /** A notification for a trade as WeChat would send it; `over` changes the encrypted transaction. */
  function buildNotification(outTradeNo: string, over: Record<string, unknown> = {}, opts: { apiV3Key?: string; timestamp?: number } = {}) {
    const t = trades.get(outTradeNo);
    if (!t) throw new Error(`fake wechatpay: no trade ${outTradeNo}`);
    const plaintext = JSON.stringify({ ...transactionOf(t), ...over });
    const nonce = crypto.randomBytes(6).toString("hex");
    const cipher = crypto.createCipheriv("aes-256-gcm", Buffer.from(opts.apiV3Key ?? merchant.apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
    cipher.setAAD(Buffer.from("transaction", "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64");
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      create_time: new Date().toISOString(),
      resource_type: "encrypt-resource",
      event_type: over.trade_state && over.trade_state !== "SUCCESS" ? "TRANSACTION.CLOSED" : "TRANSACTION.SUCCESS",
      summary: "支付成功",
      resource: { original_type: "transaction", algorithm: "AEAD_AES_256_GCM", ciphertext, associated_data: "transaction", nonce },
    });
    return { url: t.notify_url, body, headers: { "content-type": "application/json", ...signBody(body, opts.timestamp) } as Record<string, string> };
  }

  /** Delivers a (possibly tampered) notification to the merchant and answers what it said. */
  async function deliver(note: { url: string; body: string; headers: Record<string, string> }) {
    const res = await fetch(note.url, { method: "POST", headers: note.headers, body: note.body });
    return { status: res.status, body: await res.text() };
  }

  /** The payer scans and pays (or the trade ends otherwise): the trade changes and WeChat notifies. */
  async function pay(outTradeNo: string, opts: { trade_state?: TFakeWechatTrade["trade_state"]; total?: number } = {}) {
    const t = trades.get(outTradeNo);
    if (!t) throw new Error(`fake wechatpay: no trade ${outTradeNo}`);
    t.trade_state = opts.trade_state ?? "SUCCESS";
    if (t.trade_state === "SUCCESS") t.transaction_id ??= `4200${Date.now()}${crypto.randomInt(1000, 9999)}`;
    return deliver(
      buildNotification(
        outTradeNo,
        opts.total !== undefined ? { amount: { total: opts.total, payer_total: opts.total, currency: "CNY", payer_currency: "CNY" } } : {},
      ),
    );
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";

    if (url.pathname.startsWith("/__fake/")) {
      if (url.pathname === "/__fake/orders") return reply(res, 200, { orders: [...trades.values()] });
      if (url.pathname === "/__fake/pay" && method === "POST") {
        const input = JSON.parse(body || "{}") as { out_trade_no?: string; code_url?: string; trade_state?: TFakeWechatTrade["trade_state"] };
        const t = input.out_trade_no ? trades.get(input.out_trade_no) : [...trades.values()].find((x) => x.code_url === input.code_url);
        if (!t) return reply(res, 404, { code: "ORDER_NOT_EXIST", message: "no such trade" });
        return reply(res, 200, await pay(t.out_trade_no, { trade_state: input.trade_state }));
      }
      return reply(res, 404, { code: "NOT_FOUND" });
    }

    // Every API call must carry the merchant's signature over this very request.
    const auth = parseAuthorization(String(req.headers.authorization ?? ""));
    const message = auth ? `${method}\n${url.pathname}${url.search}\n${auth.timestamp}\n${auth.nonce_str}\n${body}\n` : "";
    const signed = Boolean(
      auth &&
      auth.mchid === merchant.mchid &&
      auth.serial_no === merchant.serialNo &&
      crypto
        .createVerify("RSA-SHA256")
        .update(message)
        .verify(merchant.publicKeyPem, auth.signature ?? "", "base64"),
    );
    requests.push({ method, path: url.pathname, signed });
    if (!signed) return reply(res, 401, { code: "SIGN_ERROR", message: "签名错误" });

    if (method === "POST" && url.pathname === "/v3/pay/transactions/native") {
      const o = JSON.parse(body) as {
        appid?: string;
        mchid?: string;
        description?: string;
        out_trade_no?: string;
        notify_url?: string;
        amount?: { total?: number; currency?: string };
      };
      const valid =
        o.appid === merchant.appid &&
        o.mchid === merchant.mchid &&
        o.description &&
        /^[\w\-|*]{6,32}$/.test(o.out_trade_no ?? "") &&
        /^https?:\/\//.test(o.notify_url ?? "") &&
        Number.isInteger(o.amount?.total) &&
        o.amount!.total! > 0;
      if (!valid) return reply(res, 400, { code: "PARAM_ERROR", message: "参数错误" });
      if (trades.has(o.out_trade_no!)) return reply(res, 400, { code: "OUT_TRADE_NO_USED", message: "商户订单号重复" });
      const code_url = `weixin://wxpay/bizpayurl?pr=${crypto.randomBytes(6).toString("base64url")}`;
      trades.set(o.out_trade_no!, {
        out_trade_no: o.out_trade_no!,
        appid: o.appid!,
        mchid: o.mchid!,
        description: o.description!,
        notify_url: o.notify_url!,
        total: o.amount!.total!,
        trade_state: "NOTPAY",
        transaction_id: null,
        code_url,
      });
      return reply(res, 200, { code_url });
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && query) {
      const t = trades.get(decodeURIComponent(query[1]));
      if (!t || url.searchParams.get("mchid") !== merchant.mchid) return reply(res, 404, { code: "ORDER_NOT_EXIST", message: "订单不存在" });
      return reply(res, 200, transactionOf(t));
    }
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(url.pathname);
    if (method === "POST" && close) {
      const t = trades.get(decodeURIComponent(close[1]));
      if (!t) return reply(res, 404, { code: "ORDER_NOT_EXIST", message: "订单不存在" });
      if (t.trade_state === "SUCCESS") return reply(res, 400, { code: "ORDERPAID", message: "订单已支付" });
      t.trade_state = "CLOSED";
      return reply(res, 204);
    }
    reply(res, 404, { code: "NOT_FOUND", message: "no such API" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    platformSerial,
    platformPublicKeyPem,
    trades,
    requests,
    buildNotification,
    deliver,
    pay,
    /** The environment that points Zelin at this fake (PAYMENT_NOTIFY_BASE is the app's own origin). */
    env: (): Record<string, string> => ({
      WECHATPAY_MCHID: merchant.mchid,
      WECHATPAY_APPID: merchant.appid,
      WECHATPAY_SERIAL_NO: merchant.serialNo,
      WECHATPAY_PRIVATE_KEY: merchant.privateKeyPem,
      WECHATPAY_APIV3_KEY: merchant.apiV3Key,
      WECHATPAY_PLATFORM_PUBLIC_KEY: platformPublicKeyPem,
      WECHATPAY_PLATFORM_SERIAL: platformSerial,
      WECHATPAY_API_BASE: base,
    }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type TFakeWechatPay = Awaited<ReturnType<typeof startFakeWechatPay>>;
