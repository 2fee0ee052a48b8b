// WeChat QR login and binding. A one-time state ties WeChat's callback to the start that
// asked for it; the callback always ends in a redirect, so refusals carry the purpose (login or
// bind) that decides which page shows them.
import { toSafeRedirect } from "../../lib/safe-redirect";
import crypto from "node:crypto";
import { isUniqueViolation, withTransaction } from "../../db/transaction";
import { getEnv } from "../../env";
import { AppError, isAppError } from "../../errors/app-error";
import type { TErrorCode } from "../../errors/codes";
import { logger } from "../../lib/logger";
import * as accounts from "../../accounts/accounts.repository";
import { startSession } from "../session.service";
import * as repo from "./wechat.repository";
import type { TWechatPurpose, TWechatStartInput } from "./wechat.schema";
import { grantExperienceBonus } from "../../money/editions/experience-bonus";
import { buildQrConnectUrl, exchangeWechatCode, fetchWechatProfile, WechatApiError, type TWechatClientConfig, type TWechatToken } from "./wechat-oauth-client";

export const OAUTH_STATE_TTL_MS = 10 * 60_000;
export const WECHAT_CALLBACK_PATH = "/api/v1/auth/wechat/callback";
/** Where a WeChat login lands when it asked for nowhere in particular: the workspace, as every login does. */
const WECHAT_LANDING = "/workspace";
const NICKNAME_MAX = 20;
const NAME_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

type TMeta = { ip?: string; userAgent?: string };
type TSession = Awaited<ReturnType<typeof startSession>>;

/** The app's credentials, or a refusal when this deployment has no WeChat app. */
export function getWechatConfig(): TWechatClientConfig {
  const env = getEnv();
  if (!env.WECHAT_APP_ID || !env.WECHAT_APP_SECRET) throw new AppError("wechat_login_unavailable");
  return { appId: env.WECHAT_APP_ID, appSecret: env.WECHAT_APP_SECRET, openBase: env.WECHAT_OPEN_BASE, apiBase: env.WECHAT_API_BASE };
}

export { toSafeRedirect };

export function isWechatLoginEnabled() {
  const env = getEnv();
  return Boolean(env.WECHAT_APP_ID && env.WECHAT_APP_SECRET);
}

/** Where a refused callback or start lands: the page the user came from, with the reason. */
export function buildWechatErrorRedirect(purpose: TWechatPurpose, code: TErrorCode) {
  return `${purpose === "bind" ? "/setting" : "/login"}?wechat_error=${encodeURIComponent(code)}`;
}

/** The purpose a refusal was raised under (see finishWechatCallback); login when unknown. */
export function getRefusalPurpose(err: unknown): TWechatPurpose {
  const data = isAppError(err) ? (err.data as { purpose?: unknown } | null) : null;
  return data?.purpose === "bind" ? "bind" : "login";
}

export async function startWechatLogin(input: TWechatStartInput, opts: { accountId?: string; requestOrigin: string }, now = new Date()) {
  const config = getWechatConfig();
  if (input.purpose === "bind" && !opts.accountId) throw new AppError("not_logged_in");
  const state = crypto.randomBytes(16).toString("hex");
  await repo.deleteExpiredOauthStates(now);
  await repo.insertOauthState({
    state,
    purpose: input.purpose,
    accountId: input.purpose === "bind" ? opts.accountId : undefined,
    redirect: input.purpose === "login" ? toSafeRedirect(input.redirect, WECHAT_LANDING) : undefined,
    expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
  });
  // WeChat only redirects to the domain registered for the app, so a configured origin wins over
  // whatever Host the request came in with.
  const origin = (getEnv().PUBLIC_URL ?? opts.requestOrigin).replace(/\/+$/, "");
  return { url: buildQrConnectUrl(config, `${origin}${WECHAT_CALLBACK_PATH}`, state) };
}

/** WeChat's redirect back: a session and where to go, or an AppError whose data names the purpose. */
export async function finishWechatCallback(
  query: { code?: unknown; state?: unknown },
  meta: TMeta,
  now = new Date(),
): Promise<{ session: TSession | null; redirect: string }> {
  const state = typeof query.state === "string" && query.state.length <= 128 ? query.state : "";
  const saved = state ? await repo.consumeOauthState(state) : null;
  const purpose: TWechatPurpose = saved?.purpose === "bind" ? "bind" : "login";
  try {
    if (!saved || saved.expiresAt <= now) throw new AppError("wechat_login_failed");
    const config = getWechatConfig();
    if (typeof query.code !== "string" || !query.code) throw new AppError("wechat_login_failed");
    const token = await callWechat(() => exchangeWechatCode(config, query.code as string));
    if (purpose === "bind") {
      if (!saved.accountId) throw new AppError("not_logged_in");
      await bindWechat(config, token, saved.accountId);
      return { session: null, redirect: "/setting?wechat=bound" };
    }
    const accountId = await findOrCreateWechatAccount(config, token);
    return { session: await startActiveSession(accountId, meta), redirect: toSafeRedirect(saved.redirect, WECHAT_LANDING) };
  } catch (err) {
    if (isAppError(err)) throw new AppError(err.code, { params: err.params, data: { purpose }, cause: err });
    logger.error({ err }, "WeChat callback failed");
    throw new AppError("internal_error", { data: { purpose }, cause: err });
  }
}

/** The WeChat identity bound to the account (its nickname and when), or null. */
export async function getWechatBinding(accountId: string) {
  return accounts.findWechatBinding(accountId);
}

export async function unbindWechat(accountId: string) {
  const account = await accounts.findAccountForLogin({ id: accountId });
  if (!account) throw new AppError("not_found");
  // WeChat may be the only way into this account: removing it would lock the owner out.
  if (!account.passwordHash && !account.phone) throw new AppError("wechat_unbind_needs_password");
  await repo.deleteWechatIdentity(accountId);
}

async function callWechat<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof WechatApiError)) throw err;
    logger.warn({ errcode: err.errcode, errmsg: err.errmsg, err: err.cause }, "WeChat refused the login");
    throw new AppError("wechat_login_failed", { cause: err });
  }
}

async function findOrCreateWechatAccount(config: TWechatClientConfig, token: TWechatToken) {
  const known = await repo.findWechatIdentity(token);
  if (known) return known.accountId;
  if (getEnv().REGISTRATION_MODE !== "open") throw new AppError("registration_closed");
  const profile = await callWechat(() => fetchWechatProfile(config, token));
  const unionid = token.unionid ?? profile.unionid;
  // The token does not always carry the unionid; the profile may still match an account.
  if (unionid && !token.unionid) {
    const byUnion = await repo.findWechatIdentity({ openid: token.openid, unionid });
    if (byUnion) return byUnion.accountId;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const name = `wx_${pickRandomName(10)}`;
    try {
      return await withTransaction(async (tx) => {
        const account = await accounts.createAccount(
          { account: name, nickname: toNickname(profile.nickname, name), avatarUrl: toHttpsUrl(profile.headimgurl), roles: ["individual_developer"] },
          tx,
        );
        await repo.insertWechatIdentity({ accountId: account.id, openid: token.openid, unionid, nickname: profile.nickname }, tx);
        await grantExperienceBonus(account.id, tx);
        return account.id;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A second callback for the same WeChat user won the race: use the account it made.
      const winner = await repo.findWechatIdentity({ openid: token.openid, unionid });
      if (winner) return winner.accountId;
      // Otherwise the random account name was taken: draw again.
    }
  }
  throw new Error("no free wx_ account name after three draws");
}

async function bindWechat(config: TWechatClientConfig, token: TWechatToken, accountId: string) {
  const known = await repo.findWechatIdentity(token);
  if (known) {
    if (known.accountId !== accountId) throw new AppError("wechat_already_bound");
    return;
  }
  const account = await accounts.findAccountById(accountId);
  if (!account || account.status !== "active") throw new AppError("account_disabled");
  const profile = await callWechat(() => fetchWechatProfile(config, token));
  const unionid = token.unionid ?? profile.unionid;
  try {
    // One WeChat per account: binding another one replaces it.
    await withTransaction(async (tx) => {
      await repo.deleteWechatIdentity(accountId, tx);
      await repo.insertWechatIdentity({ accountId, openid: token.openid, unionid, nickname: profile.nickname }, tx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("wechat_already_bound");
    throw err;
  }
}

async function startActiveSession(accountId: string, meta: TMeta) {
  const account = await accounts.findAccountById(accountId);
  if (!account || account.status !== "active") throw new AppError("account_disabled");
  return startSession(account.id, meta);
}

function pickRandomName(length: number) {
  return Array.from({ length }, () => NAME_ALPHABET[crypto.randomInt(NAME_ALPHABET.length)]).join("");
}

// Counted in code points: WeChat nicknames are full of emoji, and cutting a surrogate pair in two
// leaves a broken character.
function toNickname(nickname: string | null, fallback: string) {
  const cut = Array.from((nickname ?? "").trim())
    .slice(0, NICKNAME_MAX)
    .join("")
    .trim();
  return cut || fallback;
}

// WeChat still hands out http:// avatar links; its image host serves the same over https, which
// our https pages can show without a mixed-content warning.
function toHttpsUrl(url: string | null) {
  if (!url || !/^https?:\/\//.test(url)) return undefined;
  return url.replace(/^http:\/\//, "https://");
}
