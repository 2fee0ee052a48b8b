// WeCom's server API for a self-built app (qyapi.weixin.qq.com, or WECOM_API_BASE): the access
// token, messages to a member (message/send) and to a group chat the app made (appchat/send), and
// temporary media (media/upload: a picture or video becomes a media_id for three days, which an
// image or video message then names).
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
/** What a message carries: words, or a picture or video uploaded as temporary media. */
export type TWecomContent = { msgtype: TWecomMsgType; content: string } | { msgtype: "image" | "video"; mediaId: string };
/** Uploads take longer than calls: a 10 MB video on a slow link. */
const UPLOAD_TIMEOUT_MS = 60_000;

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

/** A POST with the app's token (JSON, or a form built anew for each attempt); a stale token is dropped and the call made once more with a new one. */
async function postWithToken(app: TWecomApp, path: string, body: object | (() => FormData), query = ""): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    const token = await getWecomAccessToken(app);
    const url = `${apiBase()}${path}?access_token=${encodeURIComponent(token)}${query}`;
    try {
      return await (typeof body === "function" ? uploadWecom(url, body()) : callWecom(url, body));
    } catch (err) {
      if (attempt === 0 && err instanceof WecomApiError && STALE_TOKEN.has(err.errcode)) {
        dropToken(app, token);
        continue;
      }
      throw err;
    }
  }
}

/** The message's own field: {content} for words, {media_id} for a picture or video. */
const contentOf = (m: TWecomContent) => ({ msgtype: m.msgtype, [m.msgtype]: "content" in m ? { content: m.content } : { media_id: m.mediaId } });

/** A message from the app to members (user ids joined by "|"). Markdown shows in the WeCom client. */
export async function sendWecomMessage(app: TWecomApp, m: { touser: string } & TWecomContent) {
  const body = await postWithToken(app, "/cgi-bin/message/send", { touser: m.touser, agentid: Number(app.agentId), ...contentOf(m), safe: 0 });
  // WeCom refuses a send that reaches nobody with its own errcode (81013); a partly reached one answers 0.
  return { msgid: typeof body.msgid === "string" ? body.msgid : null };
}

/** A message to a group chat the app created (appchat). */
export async function sendWecomAppChat(app: TWecomApp, m: { chatid: string } & TWecomContent) {
  await postWithToken(app, "/cgi-bin/appchat/send", { chatid: m.chatid, ...contentOf(m), safe: 0 });
}

/**
 * Uploads a picture (JPG or PNG) or an MP4 video as temporary media, in the form field "media" with
 * its file name (what WeCom shows for it); answers the media_id, good for three days.
 */
export async function uploadWecomMedia(app: TWecomApp, type: "image" | "video", file: { bytes: Buffer; filename: string; mime: string }): Promise<string> {
  const form = () => {
    const f = new FormData();
    f.append("media", new Blob([Uint8Array.from(file.bytes)], { type: file.mime }), file.filename);
    return f;
  };
  const body = await postWithToken(app, "/cgi-bin/media/upload", form, `&type=${type}`);
  if (typeof body.media_id !== "string" || !body.media_id) throw new WecomApiError(-1, "media/upload answer without media_id");
  return body.media_id;
}

// WeCom answers 200 with {errcode, errmsg} (server/net/errcode-json.ts).
const failWecom = (code: number, msg: string, opts?: { cause?: unknown }) => new WecomApiError(code, msg, opts);
const callWecom = (url: string, payload?: object) => fetchErrcodeJson(url, failWecom, { name: "WeCom", payload });
const uploadWecom = (url: string, form: FormData) => fetchErrcodeJson(url, failWecom, { name: "WeCom", form, timeoutMs: UPLOAD_TIMEOUT_MS });
