// A loopback stand-in for WeChat's website login (open.weixin.qq.com + api.weixin.qq.com): the QR
// page (with a button that plays the phone confirming the scan), the code exchange and userinfo,
// in WeChat's shapes.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TFakeWechatUser = { openid: string; unionid?: string; nickname: string };

export async function startFakeWechat(opts: { appId: string; appSecret: string; user: TFakeWechatUser }) {
  const codes = new Map<string, TFakeWechatUser>();
  const tokens = new Map<string, TFakeWechatUser>();
  const send = (res: http.ServerResponse, body: object) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const q = url.searchParams;
    if (url.pathname === "/connect/qrconnect") {
      if (q.get("appid") !== opts.appId || q.get("scope") !== "snsapi_login") return res.writeHead(400).end("bad request");
      const code = `code_${crypto.randomBytes(8).toString("hex")}`;
      codes.set(code, opts.user);
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(
        `<!doctype html><title>WeChat login</title><h1>微信登录</h1><div style="width:200px;height:200px;background:#111" aria-label="QR code"></div><a id="confirm" href="${back.toString().replace(/&/g, "&amp;")}">Confirm on phone</a>`,
      );
    }
    if (url.pathname === "/sns/oauth2/access_token") {
      if (q.get("appid") !== opts.appId || q.get("secret") !== opts.appSecret) return send(res, { errcode: 40125, errmsg: "invalid appsecret" });
      const user = codes.get(q.get("code") ?? "");
      if (!user) return send(res, { errcode: 40029, errmsg: "invalid code" });
      codes.delete(q.get("code")!);
      const token = `at_${crypto.randomBytes(12).toString("hex")}`;
      tokens.set(token, user);
      return send(res, {
        access_token: token,
        expires_in: 7200,
        refresh_token: "rt",
        openid: user.openid,
        scope: "snsapi_login",
        ...(user.unionid ? { unionid: user.unionid } : {}),
      });
    }
    if (url.pathname === "/sns/userinfo") {
      const user = tokens.get(q.get("access_token") ?? "");
      if (!user || q.get("openid") !== user.openid) return send(res, { errcode: 40001, errmsg: "invalid credential" });
      return send(res, { openid: user.openid, nickname: user.nickname, headimgurl: "", privilege: [], ...(user.unionid ? { unionid: user.unionid } : {}) });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((r) => server.close(() => r())) };
}
