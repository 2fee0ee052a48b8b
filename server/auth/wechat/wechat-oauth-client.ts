// The WeChat Open Platform website-login protocol (网站应用微信登录): the QR page URL, the code for
// token exchange, and the user's profile. Transport only; what a login means is in wechat.service.ts.
import { fetchErrcodeJson } from "../../net/errcode-json";

export type TWechatClientConfig = { appId: string; appSecret: string; openBase: string; apiBase: string };

export type TWechatToken = { accessToken: string; openid: string; unionid: string | null; scope: string };

export type TWechatProfile = { openid: string; unionid: string | null; nickname: string | null; headimgurl: string | null };

/** WeChat answered with an errcode, or could not be reached (errcode -1, like WeChat's own "system busy"). */
export class WechatApiError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
    opts: { cause?: unknown } = {},
  ) {
    super(`WeChat API error ${errcode}: ${errmsg}`, opts);
    this.name = "WechatApiError";
  }
}

const trimBase = (base: string) => base.replace(/\/+$/, "");

export function buildQrConnectUrl(config: Pick<TWechatClientConfig, "appId" | "openBase">, redirectUri: string, state: string) {
  const query = new URLSearchParams({ appid: config.appId, redirect_uri: redirectUri, response_type: "code", scope: "snsapi_login", state });
  return `${trimBase(config.openBase)}/connect/qrconnect?${query.toString()}#wechat_redirect`;
}

export async function exchangeWechatCode(config: TWechatClientConfig, code: string): Promise<TWechatToken> {
  const query = new URLSearchParams({ appid: config.appId, secret: config.appSecret, code, grant_type: "authorization_code" });
  const body = await getWechatJson(`${trimBase(config.apiBase)}/sns/oauth2/access_token?${query.toString()}`);
  if (typeof body.access_token !== "string" || typeof body.openid !== "string")
    throw new WechatApiError(-1, "access_token answer without access_token or openid");
  return { accessToken: body.access_token, openid: body.openid, unionid: asText(body.unionid), scope: asText(body.scope) ?? "" };
}

export async function fetchWechatProfile(
  config: Pick<TWechatClientConfig, "apiBase">,
  token: Pick<TWechatToken, "accessToken" | "openid">,
): Promise<TWechatProfile> {
  const query = new URLSearchParams({ access_token: token.accessToken, openid: token.openid });
  const body = await getWechatJson(`${trimBase(config.apiBase)}/sns/userinfo?${query.toString()}`);
  if (typeof body.openid !== "string") throw new WechatApiError(-1, "userinfo answer without openid");
  return { openid: body.openid, unionid: asText(body.unionid), nickname: asText(body.nickname), headimgurl: asText(body.headimgurl) };
}

function asText(value: unknown) {
  return typeof value === "string" && value !== "" ? value : null;
}

// WeChat reports failures as 200 with {errcode, errmsg} (server/net/errcode-json.ts).
const getWechatJson = (url: string) => fetchErrcodeJson(url, (code, msg, opts) => new WechatApiError(code, msg, opts), { name: "WeChat" });
