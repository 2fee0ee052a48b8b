// WeChat QR login and binding over REST on the real database, against a loopback stand-in for
// api.weixin.qq.com that answers /sns/oauth2/access_token and /sns/userinfo with WeChat's shapes
// and refuses what WeChat would refuse.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../server/accounts/accounts.repository";
import { hashPassword } from "../../server/auth/password";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { createApiRouter } from "../../server/http/api-router";

const APP_ID = "wx0123456789abcdef";
const APP_SECRET = "fake-wechat-app-secret-0123456789";
const OPEN_BASE = "https://open.weixin.qq.com";
const SETTING_NAMES = ["WECHAT_APP_ID", "WECHAT_APP_SECRET", "WECHAT_OPEN_BASE", "WECHAT_API_BASE", "PUBLIC_URL", "REGISTRATION_MODE"];
const saved = Object.fromEntries(SETTING_NAMES.map((k) => [k, process.env[k]]));
const run = crypto.randomBytes(4).toString("hex");

// The fake WeChat -----------------------------------------------------------------------------

type TWechatUser = { openid: string; unionid?: string; nickname: string };
const codes = new Map<string, TWechatUser>();
const tokens = new Map<string, TWechatUser>();
const calls = { access_token: 0, userinfo: 0 };
let wechat: http.Server;
let wechatBase: string;

/** What the phone does when the user confirms on the QR page: WeChat issues a code for them. */
function issueCode(user: TWechatUser) {
  const code = `code_${crypto.randomBytes(8).toString("hex")}`;
  codes.set(code, user);
  return code;
}

function handleWechat(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", "http://fake");
  const q = url.searchParams;
  const send = (body: object) => {
    // WeChat answers JSON with a text/plain type; clients must not rely on the header.
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === "/sns/oauth2/access_token") {
    calls.access_token++;
    if (q.get("appid") !== APP_ID) return send({ errcode: 40013, errmsg: "invalid appid" });
    if (q.get("secret") !== APP_SECRET) return send({ errcode: 40125, errmsg: "invalid appsecret" });
    if (q.get("grant_type") !== "authorization_code") return send({ errcode: 40002, errmsg: "invalid grant_type" });
    const user = codes.get(q.get("code") ?? "");
    if (!user) return send({ errcode: 40029, errmsg: "invalid code" });
    codes.delete(q.get("code")!);
    const accessToken = `at_${crypto.randomBytes(12).toString("hex")}`;
    tokens.set(accessToken, user);
    return send({
      access_token: accessToken,
      expires_in: 7200,
      refresh_token: `rt_${crypto.randomBytes(12).toString("hex")}`,
      openid: user.openid,
      scope: "snsapi_login",
      ...(user.unionid ? { unionid: user.unionid } : {}),
    });
  }
  if (url.pathname === "/sns/userinfo") {
    calls.userinfo++;
    const user = tokens.get(q.get("access_token") ?? "");
    if (!user) return send({ errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" });
    if (q.get("openid") !== user.openid) return send({ errcode: 40003, errmsg: "invalid openid" });
    return send({
      openid: user.openid,
      nickname: user.nickname,
      sex: 0,
      province: "",
      city: "",
      country: "",
      headimgurl: "http://thirdwx.qlogo.cn/mmopen/fake/132",
      privilege: [],
      ...(user.unionid ? { unionid: user.unionid } : {}),
    });
  }
  res.writeHead(404).end();
}

// The app under test --------------------------------------------------------------------------

let app: Server;
let base: string;

function configure(env: Record<string, string | undefined> = {}) {
  for (const k of SETTING_NAMES) delete process.env[k];
  const defaults = { WECHAT_APP_ID: APP_ID, WECHAT_APP_SECRET: APP_SECRET, WECHAT_OPEN_BASE: OPEN_BASE, WECHAT_API_BASE: wechatBase };
  Object.assign(process.env, Object.fromEntries(Object.entries({ ...defaults, ...env }).filter(([, v]) => v !== undefined)));
  resetEnvCache();
}

/** A loopback port nobody listens on any more: connecting is refused at once. */
async function findClosedBase() {
  const closed = http.createServer();
  closed.listen(0, "127.0.0.1");
  await new Promise((r) => closed.once("listening", r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  return `http://127.0.0.1:${port}`;
}

const newUser = (nickname = "微信用户🐼"): TWechatUser => ({ openid: `o_${run}_${crypto.randomBytes(6).toString("hex")}`, nickname });
const sessionCookie = (token: string) => `zl_session=${token}`;

async function get(path: string, cookie?: string) {
  return fetch(`${base}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
}

async function startQr(query: string, cookie?: string) {
  const res = await get(`/api/v1/auth/wechat/start?${query}`, cookie);
  const body = await res.json();
  return { body, url: body.data?.url as string | undefined };
}

const stateOf = (qrUrl: string) => new URL(qrUrl.replace(/#wechat_redirect$/, "")).searchParams.get("state")!;

/** The browser returning from WeChat: the callback's redirect and the session cookie it set, if any. */
async function callback(code: string, state: string) {
  const res = await get(`/api/v1/auth/wechat/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`);
  const session = res.headers.getSetCookie().find((c) => c.startsWith("zl_session="));
  return { status: res.status, location: res.headers.get("location"), session: session?.split(";")[0].slice("zl_session=".length) };
}

async function scan(user: TWechatUser, opts: { query?: string; cookie?: string } = {}) {
  const { url } = await startQr(opts.query ?? "purpose=login", opts.cookie);
  return callback(issueCode(user), stateOf(url!));
}

async function callMe(token: string) {
  return (await (await get("/api/v1/account/me", sessionCookie(token))).json()) as {
    status: number;
    data: { id: string; account: string; nickname: string; roles: string[] };
  };
}

async function unbind(token: string) {
  const csrf = crypto.randomBytes(12).toString("hex");
  const res = await fetch(`${base}/api/v1/account/wechat/unbind`, {
    method: "POST",
    headers: { cookie: `${sessionCookie(token)}; zl_csrf=${csrf}`, "x-csrf-token": csrf, "content-type": "application/json" },
    body: "{}",
  });
  return res.json();
}

const findIdentity = (openid: string) => getDb().wechatIdentity.findUnique({ where: { openid }, select: { accountId: true, nickname: true } });

async function createPasswordAccount() {
  const account = await createAccount({
    account: `pw_${run}_${crypto.randomBytes(3).toString("hex")}`,
    nickname: "Password user",
    passwordHash: await hashPassword("secret-123456"),
    roles: ["individual_developer"],
  });
  const session = await startSession(account.id);
  return { id: account.id, token: session.token };
}

beforeAll(async () => {
  wechat = http.createServer(handleWechat);
  wechat.listen(0, "127.0.0.1");
  await new Promise((r) => wechat.once("listening", r));
  wechatBase = `http://127.0.0.1:${(wechat.address() as AddressInfo).port}`;
  const web = express();
  web.use("/api", createApiRouter());
  app = web.listen(0, "127.0.0.1");
  await new Promise((r) => app.once("listening", r));
  base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  configure();
});
afterAll(async () => {
  for (const k of SETTING_NAMES) delete process.env[k];
  Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
  resetEnvCache();
  await Promise.all([new Promise((r) => app.close(r)), new Promise((r) => wechat.close(r))]);
});
afterEach(() => configure());

// Tests ---------------------------------------------------------------------------------------

describe("GET /api/v1/auth/wechat/start", () => {
  it("answers the qrconnect URL with the app id, the encoded callback, snsapi_login and a stored state", async () => {
    const { body, url } = await startQr("purpose=login&redirect=%2Fconsole%3Ftab%3D1");
    expect(body.status).toBe(200);
    expect(url).toMatch(new RegExp(`^${OPEN_BASE}/connect/qrconnect\\?`));
    expect(url).toMatch(/#wechat_redirect$/);
    expect(url).toContain(`redirect_uri=${encodeURIComponent(`${base}/api/v1/auth/wechat/callback`)}`);
    const q = new URL(url!.replace(/#wechat_redirect$/, "")).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      appid: APP_ID,
      response_type: "code",
      scope: "snsapi_login",
      redirect_uri: `${base}/api/v1/auth/wechat/callback`,
    });
    const row = await getDb().oauthState.findUnique({ where: { state: q.get("state")! } });
    expect(row).toMatchObject({ purpose: "login", accountId: null, redirect: "/console?tab=1" });
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(minutes).toBeCloseTo(10, 0);
  });

  it("builds the callback from PUBLIC_URL when it is set", async () => {
    configure({ PUBLIC_URL: "https://zelinai.example/" });
    const { url } = await startQr("purpose=login");
    expect(url).toContain(`redirect_uri=${encodeURIComponent("https://zelinai.example/api/v1/auth/wechat/callback")}`);
  });

  it("?go=1 redirects the browser to the QR page", async () => {
    const res = await get("/api/v1/auth/wechat/start?purpose=login&go=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(new RegExp(`^${OPEN_BASE}/connect/qrconnect\\?appid=${APP_ID}&`));
  });

  it("refuses when the deployment has no WeChat app, as an envelope or as a redirect", async () => {
    configure({ WECHAT_APP_ID: undefined, WECHAT_APP_SECRET: undefined });
    const { body } = await startQr("purpose=login");
    expect(body).toMatchObject({ status: 420118, data: null });
    const res = await get("/api/v1/auth/wechat/start?purpose=login&go=1");
    expect(res.headers.get("location")).toBe("/login?wechat_error=wechat_login_unavailable");
  });

  it("binding needs a signed-in account", async () => {
    expect((await startQr("purpose=bind")).body.status).toBe(110003);
  });
});

describe("WeChat login", () => {
  it("a new WeChat user gets an account, its identity and a session, and lands on the saved page", async () => {
    const user = newUser("  A very long WeChat nickname 🐼🐼🐼 indeed  ");
    const result = await scan(user, { query: "purpose=login&redirect=%2Fconsole%2Fagents%3Ftab%3D2" });
    expect(result).toMatchObject({ status: 302, location: "/console/agents?tab=2" });
    expect(result.session).toBeTruthy();

    const identity = await findIdentity(user.openid);
    expect(identity).toBeTruthy();
    const account = await getDb().account.findUniqueOrThrow({
      where: { id: identity!.accountId },
      select: { account: true, nickname: true, passwordHash: true, phone: true, roles: true, avatarUrl: true },
    });
    expect(account.account).toMatch(/^wx_[a-z0-9]{10}$/);
    expect(account).toMatchObject({
      passwordHash: null,
      phone: null,
      roles: ["individual_developer"],
      nickname: "A very long WeChat n",
      avatarUrl: "https://thirdwx.qlogo.cn/mmopen/fake/132",
    });
    const me = await callMe(result.session!);
    expect(me.data).toMatchObject({ id: identity!.accountId, account: account.account });
  });

  it("a second login with the same WeChat signs in to the same account", async () => {
    const user = newUser();
    const first = await scan(user);
    const accountsBefore = await getDb().account.count();
    const second = await scan(user);
    expect(second).toMatchObject({ status: 302, location: "/workspace" });
    expect(second.session).toBeTruthy();
    expect(second.session).not.toBe(first.session);
    expect(await getDb().account.count()).toBe(accountsBefore);
    expect((await callMe(second.session!)).data.id).toBe((await callMe(first.session!)).data.id);
  });

  it("finds the account by unionid when the openid is from another app of the same platform", async () => {
    const unionid = `u_${run}_${crypto.randomBytes(6).toString("hex")}`;
    const first = await scan({ ...newUser(), unionid });
    const second = await scan({ ...newUser(), unionid });
    expect((await callMe(second.session!)).data.id).toBe((await callMe(first.session!)).data.id);
  });

  it("nickname falls back to the account name when WeChat gives none", async () => {
    const user = newUser("   ");
    const { session } = await scan(user);
    const me = await callMe(session!);
    expect(me.data.nickname).toBe(me.data.account);
  });

  it("never redirects off the site", async () => {
    for (const redirect of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/%09/evil.example"]) {
      const result = await scan(newUser(), { query: `purpose=login&redirect=${encodeURIComponent(decodeURIComponent(redirect))}` });
      expect(result.location, redirect).toBe("/workspace");
    }
  });

  it("refuses a used, an unknown or an expired state without asking WeChat or creating anything", async () => {
    const user = newUser();
    const { url } = await startQr("purpose=login");
    const state = stateOf(url!);
    const first = await callback(issueCode(user), state);
    expect(first.session).toBeTruthy();

    const before = calls.access_token;
    const reused = await callback(issueCode(newUser()), state);
    expect(reused).toEqual({ status: 302, location: "/login?wechat_error=wechat_login_failed", session: undefined });

    const stranger = newUser();
    const unknown = await callback(issueCode(stranger), crypto.randomBytes(16).toString("hex"));
    expect(unknown).toEqual({ status: 302, location: "/login?wechat_error=wechat_login_failed", session: undefined });

    const late = stateOf((await startQr("purpose=login")).url!);
    await getDb().oauthState.update({ where: { state: late }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await callback(issueCode(stranger), late);
    expect(expired).toEqual({ status: 302, location: "/login?wechat_error=wechat_login_failed", session: undefined });

    expect(calls.access_token).toBe(before);
    expect(await findIdentity(stranger.openid)).toBeNull();
  });

  it("of two callbacks racing with one state, only one signs in", async () => {
    const state = stateOf((await startQr("purpose=login")).url!);
    const results = await Promise.all([callback(issueCode(newUser()), state), callback(issueCode(newUser()), state)]);
    expect(results.filter((r) => r.session).length).toBe(1);
    expect(results.filter((r) => r.location === "/login?wechat_error=wechat_login_failed").length).toBe(1);
  });

  it("refuses a code WeChat rejects, and an unreachable WeChat", async () => {
    const { url } = await startQr("purpose=login");
    const before = calls.access_token;
    const bogus = await callback("not-a-code-wechat-issued", stateOf(url!));
    expect(bogus).toEqual({ status: 302, location: "/login?wechat_error=wechat_login_failed", session: undefined });
    expect(calls.access_token).toBe(before + 1);

    const user = newUser();
    const state = stateOf((await startQr("purpose=login")).url!);
    configure({ WECHAT_API_BASE: await findClosedBase() });
    const down = await callback(issueCode(user), state);
    expect(down).toEqual({ status: 302, location: "/login?wechat_error=wechat_login_failed", session: undefined });
    expect(await findIdentity(user.openid)).toBeNull();
  });

  it("with registration by invitation, a new WeChat user is refused but a known one signs in", async () => {
    const known = newUser();
    await scan(known);
    configure({ REGISTRATION_MODE: "invitation" });
    const stranger = newUser();
    const refused = await scan(stranger);
    expect(refused).toEqual({ status: 302, location: "/login?wechat_error=registration_closed", session: undefined });
    expect(await findIdentity(stranger.openid)).toBeNull();
    expect((await scan(known)).session).toBeTruthy();
  });
});

describe("WeChat binding", () => {
  it("attaches the WeChat to the signed-in account, which can then log in with it", async () => {
    const owner = await createPasswordAccount();
    const user = newUser("Binder");
    const bound = await scan(user, { query: "purpose=bind", cookie: sessionCookie(owner.token) });
    expect(bound).toEqual({ status: 302, location: "/setting?wechat=bound", session: undefined });
    expect(await findIdentity(user.openid)).toEqual({ accountId: owner.id, nickname: "Binder" });
    const login = await scan(user);
    expect((await callMe(login.session!)).data.id).toBe(owner.id);
  });

  it("refuses a WeChat bound to another account and leaves it there", async () => {
    const user = newUser();
    const other = await scan(user);
    const otherId = (await callMe(other.session!)).data.id;
    const owner = await createPasswordAccount();
    const refused = await scan(user, { query: "purpose=bind", cookie: sessionCookie(owner.token) });
    expect(refused).toEqual({ status: 302, location: "/setting?wechat_error=wechat_already_bound", session: undefined });
    expect((await findIdentity(user.openid))!.accountId).toBe(otherId);
  });

  it("a failed exchange sends the user back to the settings page", async () => {
    const owner = await createPasswordAccount();
    const { url } = await startQr("purpose=bind", sessionCookie(owner.token));
    const refused = await callback("not-a-code-wechat-issued", stateOf(url!));
    expect(refused.location).toBe("/setting?wechat_error=wechat_login_failed");
  });
});

describe("POST /api/v1/account/wechat/unbind", () => {
  it("refuses an account WeChat is the only way into", async () => {
    const user = newUser();
    const { session } = await scan(user);
    expect(await unbind(session!)).toMatchObject({ status: 420119, data: null });
    expect(await findIdentity(user.openid)).not.toBeNull();
  });

  it("removes the WeChat of an account that has a password", async () => {
    const owner = await createPasswordAccount();
    const user = newUser();
    await scan(user, { query: "purpose=bind", cookie: sessionCookie(owner.token) });
    expect(await unbind(owner.token)).toEqual({ status: 200, description: "success", data: {} });
    expect(await findIdentity(user.openid)).toBeNull();
  });

  it("needs a session", async () => {
    const csrf = "t".repeat(24);
    const res = await fetch(`${base}/api/v1/account/wechat/unbind`, { method: "POST", headers: { cookie: `zl_csrf=${csrf}`, "x-csrf-token": csrf } });
    expect((await res.json()).status).toBe(110003);
  });
});
