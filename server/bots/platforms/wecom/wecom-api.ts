// WeCom's server API for a self-built app (qyapi.weixin.qq.com, or WECOM_API_BASE): the access
// token, messages to a member (message/send) and to a group chat the app made (appchat/send).
// WeCom limits gettoken calls and a token lasts expires_in seconds (7200), valid for every caller:
// it is kept per process per app, renewed 5 minutes early, and concurrent callers share one fetch.
import crypto from "node:crypto";
import { getEnv } from "../../../env";
import { fetchErrcodeJson } from "../../../net/errcode-json";

const EARLY_MS = 5 * 60_000;
/** The token is invalid (40014), expired (42001) or not the latest (40001): fetch a new one and try once more. */
const STALE_TOKEN = new Set([40014, 42001, 40001]);

export type TWecomApp = { corpId: string; agentId: string; secret: string };
export type TWecomMsgType = "markdown" | "text";

/** WeCom answered with an errcode, or could not be reached (errcode -1, WeCom's own "system busy"). */
export class WecomApiError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
    opts: { cause?: unknown } = {},
  ) {
    super(`WeCom API error ${errcode}: ${errmsg}`, opts);
    this.name = "WecomApiError";
  }
}

type TToken = { value: string; renewAt: number };
const tokens = new Map<string, TToken>();
const pending = new Map<string, Promise<string>>();

const apiBase = () => getEnv().WECOM_API_BASE.replace(/\/+$/, "");
// The secret is part of the key (hashed: keys show up in heap dumps), so an edited secret is used at once.
const tokenKey = (app: TWecomApp) => `${apiBase()}|${app.corpId}|${app.agentId}|${crypto.createHash("sha256").update(app.secret).digest("hex").slice(0, 16)}`;

/** The app's access token, from the cache while it has more than 5 minutes left. */
export async function getWecomAccessToken(app: TWecomApp): Promise<string> {
  const key = tokenKey(app);
  const kept = tokens.get(key);
  if (kept && kept.renewAt > Date.now()) return kept.value;
  let p = pending.get(key);
  if (!p) {
    p = fetchToken(app).then(({ value, expiresIn }) => {
      const lifeMs = expiresIn * 1000;
      tokens.set(key, { value, renewAt: Date.now() + (lifeMs > 2 * EARLY_MS ? lifeMs - EARLY_MS : lifeMs / 2) });
      return value;
    });
    p.finally(() => pending.delete(key)).catch(() => undefined);
    pending.set(key, p);
  }
  return p;
}

/** Forgets `token` if it is still the one kept (another caller may already have a newer one). */
function dropToken(app: TWecomApp, token: string) {
  const key = tokenKey(app);
  if (tokens.get(key)?.value === token) tokens.delete(key);
}

async function fetchToken(app: TWecomApp) {
  const query = new URLSearchParams({ corpid: app.corpId, corpsecret: app.secret });
  const body = await callWecom(`${apiBase()}/cgi-bin/gettoken?${query.toString()}`);
  if (typeof body.access_token !== "string" || !body.access_token) throw new WecomApiError(-1, "gettoken answer without access_token");
  const expiresIn = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 7200;
  return { value: body.access_token, expiresIn };
}

/** A POST with the app's token; a stale token is dropped and the call made once more with a new one. */
async function postWithToken(app: TWecomApp, path: string, payload: object): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    const token = await getWecomAccessToken(app);
    try {
      return await callWecom(`${apiBase()}${path}?access_token=${encodeURIComponent(token)}`, payload);
    } catch (err) {
      if (attempt === 0 && err instanceof WecomApiError && STALE_TOKEN.has(err.errcode)) {
        dropToken(app, token);
        continue;
      }
      throw err;
    }
  }
}

/** A message from the app to members (user ids joined by "|"). Markdown shows in the WeCom client. */
export async function sendWecomMessage(app: TWecomApp, m: { touser: string; msgtype: TWecomMsgType; content: string }) {
  const body = await postWithToken(app, "/cgi-bin/message/send", {
    touser: m.touser,
    msgtype: m.msgtype,
    agentid: Number(app.agentId),
    [m.msgtype]: { content: m.content },
    safe: 0,
  });
  // WeCom refuses a send that reaches nobody with its own errcode (81013); a partly reached one answers 0.
  return { msgid: typeof body.msgid === "string" ? body.msgid : null };
}

/** A message to a group chat the app created (appchat). */
export async function sendWecomAppChat(app: TWecomApp, m: { chatid: string; msgtype: TWecomMsgType; content: string }) {
  await postWithToken(app, "/cgi-bin/appchat/send", { chatid: m.chatid, msgtype: m.msgtype, [m.msgtype]: { content: m.content }, safe: 0 });
}

// WeCom answers 200 with {errcode, errmsg} (server/net/errcode-json.ts).
const callWecom = (url: string, payload?: object) => fetchErrcodeJson(url, (code, msg, opts) => new WecomApiError(code, msg, opts), { name: "WeCom", payload });
