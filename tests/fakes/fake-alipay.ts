// A loopback stand-in for Alipay's open gateway (openapi.alipay.com/gateway.do): the page-pay
// cashier (GET with the merchant's RSA2-signed parameters, checked with the merchant's public key),
// alipay.trade.query and alipay.trade.close (signed answers), and the payer: `pay()` (or the
// cashier page's button, or POST /__fake/pay) sends our notify_url the form-encoded notification
// signed with Alipay's own key. Keys come from the test; nothing is shared with our code.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TFakeAlipayTrade = {
  out_trade_no: string;
  total_amount: string;
  subject: string;
  notify_url: string;
  return_url: string | null;
  trade_status: "WAIT_BUYER_PAY" | "TRADE_SUCCESS" | "TRADE_FINISHED" | "TRADE_CLOSED";
  trade_no: string;
};

export type TAlipayMerchant = { appId: string; privateKeyPem: string; publicKeyPem: string };

export function makeAlipayMerchant(over: Partial<TAlipayMerchant> = {}): TAlipayMerchant {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    appId: "2021000000000001",
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    ...over,
  };
}

const content = (params: Record<string, string>, omit: string[]) =>
  Object.keys(params)
    .filter((k) => !omit.includes(k) && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");

const beijingNow = () => new Date(Date.now() + 8 * 3600_000).toISOString().replace("T", " ").slice(0, 19);
const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export async function startFakeAlipay(merchant: TAlipayMerchant) {
  const alipay = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const alipayPublicKeyPem = alipay.publicKey.export({ type: "spki", format: "pem" }).toString();
  const trades = new Map<string, TFakeAlipayTrade>();
  const sign = (text: string) => crypto.createSign("RSA-SHA256").update(text, "utf8").sign(alipay.privateKey, "base64");
  const verifyMerchant = (params: Record<string, string>) =>
    params.sign_type === "RSA2" &&
    params.app_id === merchant.appId &&
    crypto
      .createVerify("RSA-SHA256")
      .update(content(params, ["sign"]), "utf8")
      .verify(merchant.publicKeyPem, params.sign ?? "", "base64");

  /** A notification as Alipay posts it; `over` changes fields after signing when `tamper` is set. */
  function buildNotification(outTradeNo: string, over: Partial<Record<string, string>> = {}, opts: { tamper?: Partial<Record<string, string>> } = {}) {
    const t = trades.get(outTradeNo);
    if (!t) throw new Error(`fake alipay: no trade ${outTradeNo}`);
    const params: Record<string, string> = {
      gmt_create: beijingNow(),
      charset: "utf-8",
      gmt_payment: beijingNow(),
      notify_time: beijingNow(),
      subject: t.subject,
      buyer_id: "2088102122524333",
      invoice_amount: t.total_amount,
      version: "1.0",
      notify_id: crypto.randomBytes(16).toString("hex"),
      fund_bill_list: JSON.stringify([{ amount: t.total_amount, fundChannel: "ALIPAYACCOUNT" }]),
      notify_type: "trade_status_sync",
      out_trade_no: t.out_trade_no,
      total_amount: t.total_amount,
      trade_status: t.trade_status,
      trade_no: t.trade_no,
      auth_app_id: merchant.appId,
      receipt_amount: t.total_amount,
      point_amount: "0.00",
      app_id: merchant.appId,
      buyer_pay_amount: t.total_amount,
      seller_id: "2088102119685838",
      ...(over as Record<string, string>),
    };
    params.sign = sign(content(params, ["sign", "sign_type"]));
    params.sign_type = "RSA2";
    Object.assign(params, opts.tamper ?? {});
    return { url: t.notify_url, body: new URLSearchParams(params).toString() };
  }

  async function deliver(note: { url: string; body: string }) {
    const res = await fetch(note.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" }, body: note.body });
    return { status: res.status, body: await res.text() };
  }

  /** The payer pays on the cashier page (or the trade closes): Alipay notifies the merchant. */
  async function pay(outTradeNo: string, opts: { trade_status?: TFakeAlipayTrade["trade_status"]; total_amount?: string } = {}) {
    const t = trades.get(outTradeNo);
    if (!t) throw new Error(`fake alipay: no trade ${outTradeNo}`);
    t.trade_status = opts.trade_status ?? "TRADE_SUCCESS";
    return deliver(buildNotification(outTradeNo, opts.total_amount ? { total_amount: opts.total_amount } : {}));
  }

  const answer = (res: http.ServerResponse, method: string, node: object) => {
    const nodeText = JSON.stringify(node);
    const name = `${method.replace(/\./g, "_")}_response`;
    res.writeHead(200, { "content-type": "application/json;charset=utf-8" });
    res.end(`{"${name}":${nodeText},"sign":"${sign(nodeText)}"}`);
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");

    if (url.pathname === "/__fake/orders") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ orders: [...trades.values()] }));
    }
    if (url.pathname === "/__fake/pay" && req.method === "POST") {
      const input = Object.fromEntries(new URLSearchParams(body)) as { out_trade_no?: string; trade_status?: TFakeAlipayTrade["trade_status"] };
      if (!input.out_trade_no || !trades.has(input.out_trade_no)) return res.writeHead(404).end("no such trade");
      const result = await pay(input.out_trade_no, { trade_status: input.trade_status });
      const back = trades.get(input.out_trade_no)!.return_url;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(
        `<!doctype html><title>支付宝</title><p id="paid">${result.body === "success" ? "支付成功" : "通知失败"}</p>${back ? `<a href="${escapeHtml(back)}">返回商家</a>` : ""}`,
      );
    }
    if (url.pathname !== "/gateway.do") return res.writeHead(404).end();

    const params = Object.fromEntries(req.method === "GET" ? url.searchParams : new URLSearchParams(body));
    if (!verifyMerchant(params)) {
      if (req.method === "GET")
        return res.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><p id='error'>invalid-signature 验签出错</p>");
      return answer(res, params.method ?? "alipay.error", { code: "40002", msg: "Invalid Arguments", sub_code: "isv.invalid-signature", sub_msg: "验签出错" });
    }
    const biz = JSON.parse(params.biz_content ?? "{}") as { out_trade_no?: string; total_amount?: string; subject?: string; product_code?: string };

    if (params.method === "alipay.trade.page.pay" && req.method === "GET") {
      if (
        !biz.out_trade_no ||
        !/^\d+\.\d{2}$/.test(biz.total_amount ?? "") ||
        !biz.subject ||
        biz.product_code !== "FAST_INSTANT_TRADE_PAY" ||
        !params.notify_url
      )
        return res.writeHead(400).end("invalid parameters");
      const t = trades.get(biz.out_trade_no) ?? {
        out_trade_no: biz.out_trade_no,
        total_amount: biz.total_amount!,
        subject: biz.subject,
        notify_url: params.notify_url,
        return_url: params.return_url ?? null,
        trade_status: "WAIT_BUYER_PAY" as const,
        trade_no: `2024${Date.now()}${crypto.randomInt(1000, 9999)}`,
      };
      trades.set(t.out_trade_no, t);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(
        `<!doctype html><title>支付宝 - 网上支付</title><h1>收银台</h1><p id="amount">${escapeHtml(t.total_amount)}</p><p>${escapeHtml(t.subject)}</p>` +
          `<form method="post" action="/__fake/pay"><input type="hidden" name="out_trade_no" value="${escapeHtml(t.out_trade_no)}"><button id="pay" type="submit">确认付款</button></form>`,
      );
    }
    const t = trades.get(biz.out_trade_no ?? "");
    if (params.method === "alipay.trade.query") {
      if (!t) return answer(res, params.method, { code: "40004", msg: "Business Failed", sub_code: "ACQ.TRADE_NOT_EXIST", sub_msg: "交易不存在" });
      return answer(res, params.method, {
        code: "10000",
        msg: "Success",
        trade_no: t.trade_no,
        out_trade_no: t.out_trade_no,
        trade_status: t.trade_status,
        total_amount: t.total_amount,
        buyer_logon_id: "159****5620",
      });
    }
    if (params.method === "alipay.trade.close") {
      if (!t) return answer(res, params.method, { code: "40004", msg: "Business Failed", sub_code: "ACQ.TRADE_NOT_EXIST", sub_msg: "交易不存在" });
      if (t.trade_status !== "WAIT_BUYER_PAY")
        return answer(res, params.method, { code: "40004", msg: "Business Failed", sub_code: "ACQ.TRADE_STATUS_ERROR", sub_msg: "交易状态不合法" });
      t.trade_status = "TRADE_CLOSED";
      return answer(res, params.method, { code: "10000", msg: "Success", trade_no: t.trade_no, out_trade_no: t.out_trade_no });
    }
    answer(res, params.method ?? "alipay.error", { code: "40004", msg: "Business Failed", sub_code: "isv.invalid-method", sub_msg: "不存在的方法名" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    gateway: `${base}/gateway.do`,
    alipayPublicKeyPem,
    trades,
    buildNotification,
    deliver,
    pay,
    env: (): Record<string, string> => ({
      ALIPAY_APP_ID: merchant.appId,
      ALIPAY_PRIVATE_KEY: merchant.privateKeyPem,
      ALIPAY_PUBLIC_KEY: alipayPublicKeyPem,
      ALIPAY_GATEWAY: `${base}/gateway.do`,
    }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type TFakeAlipay = Awaited<ReturnType<typeof startFakeAlipay>>;
