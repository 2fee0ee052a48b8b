// A loopback stand-in for WeCom (qyapi.weixin.qq.com) as a self-built app sees it: gettoken with a
// real expires_in and WeCom's errcodes, message/send and appchat/send (refusing stale tokens, bad
// agent ids and over-long content as WeCom does), recording what it was sent; temporary media
// (media/upload: a multipart "media" file of type image (JPG/PNG), video (MP4), voice or file,
// within WeCom's sizes) that image and video messages name by media_id; and the other
// direction: callbacks sealed and signed as WeCom seals them (WXBizMsgCrypt), for a bot's token,
// EncodingAESKey and corp id.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildWecomXml, encryptWecom, wecomSignature } from "../../server/bots/platforms/wecom/wecom-crypto";
import { isMp4, isMultipart, readForm, sniffPicture } from "./multipart-form";

export type TFakeWecomApp = { corpId: string; agentId: string; secret: string };
/** `content` is the words of a text or markdown message; `mediaId` what an image or video message names. */
export type TWecomSent = {
  api: "message/send" | "appchat/send";
  to: string;
  msgtype: string;
  content: string;
  mediaId?: string;
  agentId: string;
  body: Record<string, unknown>;
};
export type TWecomMedia = { corpId: string; type: string; filename: string; mime: string; bytes: Buffer; expiresAt: number };

/** WeCom's limit for a text or markdown message's content, in UTF-8 bytes. */
export const WECOM_CONTENT_MAX_BYTES = 2048;
const MB = 1024 * 1024;
/** Temporary media by type: the most bytes, and the content it must be. */
const MEDIA_RULES: Record<string, { max: number; accepts: (b: Buffer) => boolean }> = {
  image: { max: 10 * MB, accepts: (b) => sniffPicture(b) === "png" || sniffPicture(b) === "jpeg" },
  video: { max: 10 * MB, accepts: isMp4 },
  voice: { max: 2 * MB, accepts: (b) => b.subarray(0, 6).toString("latin1") === "#!AMR\n" },
  file: { max: 20 * MB, accepts: () => true },
};

export async function startFakeWecom(opts: { apps: TFakeWecomApp[]; expiresIn?: number; knownChats?: string[]; port?: number }) {
  const apps = [...opts.apps];
  const issued = new Map<string, { app: TFakeWecomApp; expiresAt: number }>();
  const sent: TWecomSent[] = [];
  const media = new Map<string, TWecomMedia>();
  const state = { tokenRequests: 0, tokenDelayMs: 0, expiresIn: opts.expiresIn ?? 7200 };
  const chats = opts.knownChats ? new Set(opts.knownChats) : null;

  const answer = (res: http.ServerResponse, body: object) => {
    res.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, errcode: number, errmsg: string) => answer(res, { errcode, errmsg: `${errmsg}, hint: [${Date.now()}-fake]` });

  function tokenOf(q: URLSearchParams, res: http.ServerResponse) {
    const token = q.get("access_token");
    if (!token) return void error(res, 41001, "access_token missing");
    const t = issued.get(token);
    if (!t) return void error(res, 40014, "invalid access_token");
    if (t.expiresAt <= Date.now()) return void error(res, 42001, "access_token expired");
    return t;
  }

  function content(
    body: Record<string, unknown>,
    res: http.ServerResponse,
    corpId: string,
  ): { msgtype: string; content: string; mediaId?: string } | undefined {
    const msgtype = String(body.msgtype ?? "");
    if (msgtype === "image" || msgtype === "video") {
      const id = (body[msgtype] as { media_id?: unknown } | undefined)?.media_id;
      const m = typeof id === "string" ? media.get(id) : undefined;
      if (!m || m.corpId !== corpId || m.type !== msgtype || m.expiresAt <= Date.now()) return void error(res, 40007, "invalid media_id");
      return { msgtype, content: "", mediaId: id as string };
    }
    if (msgtype !== "text" && msgtype !== "markdown") return void error(res, 40008, "invalid message type");
    const c = (body[msgtype] as { content?: unknown } | undefined)?.content;
    if (typeof c !== "string" || !c) return void error(res, 44004, "empty content");
    if (Buffer.byteLength(c, "utf8") > WECOM_CONTENT_MAX_BYTES) return void error(res, 45002, "content size out of limit");
    return { msgtype, content: c };
  }

  /** media/upload: the "media" file part (with its file name) of a type WeCom knows, within its size and format. */
  async function upload(req: http.IncomingMessage, raw: Buffer, q: URLSearchParams, corpId: string, res: http.ServerResponse) {
    const type = q.get("type") ?? "";
    const rule = MEDIA_RULES[type];
    if (!rule) return error(res, 40004, "invalid media type");
    if (!isMultipart(req.headers["content-type"])) return error(res, 44001, "empty media data");
    const form = await readForm(req.headers["content-type"]!, raw).catch(() => null);
    const file = form?.files.find((f) => f.field === "media");
    if (!file || !file.filename || !file.bytes.length) return error(res, 44001, "empty media data");
    if (file.bytes.length <= 5 || file.bytes.length > rule.max) return error(res, 40006, "invalid file size");
    if (!rule.accepts(file.bytes)) return error(res, 40005, "invalid file type");
    const id = `3${crypto.randomBytes(24).toString("base64url")}`;
    media.set(id, { corpId, type, filename: file.filename, mime: file.mime, bytes: file.bytes, expiresAt: Date.now() + 3 * 86_400_000 });
    answer(res, { errcode: 0, errmsg: "", type, media_id: id, created_at: String(Math.floor(Date.now() / 1000)) });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const q = url.searchParams;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "GET" && url.pathname === "/cgi-bin/gettoken") {
        state.tokenRequests++;
        const issue = () => {
          if (!q.get("corpid")) return error(res, 41002, "corpid missing");
          if (!q.get("corpsecret")) return error(res, 41004, "corpsecret missing");
          if (!apps.some((a) => a.corpId === q.get("corpid"))) return error(res, 40013, "invalid corpid");
          const app = apps.find((a) => a.corpId === q.get("corpid") && a.secret === q.get("corpsecret"));
          if (!app) return error(res, 40001, "invalid credential, access_token is invalid or not latest");
          const token = crypto.randomBytes(32).toString("base64url");
          issued.set(token, { app, expiresAt: Date.now() + state.expiresIn * 1000 });
          answer(res, { errcode: 0, errmsg: "ok", access_token: token, expires_in: state.expiresIn });
        };
        return state.tokenDelayMs ? void setTimeout(issue, state.tokenDelayMs) : issue();
      }
      const posts = ["/cgi-bin/message/send", "/cgi-bin/appchat/send", "/cgi-bin/media/upload"];
      if (req.method !== "POST" || !posts.includes(url.pathname)) return void res.writeHead(404).end();
      const token = tokenOf(q, res);
      if (!token) return;
      if (url.pathname === "/cgi-bin/media/upload") return void upload(req, Buffer.concat(chunks), q, token.app.corpId, res);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        return error(res, 47001, "data format error");
      }
      const c = content(body, res, token.app.corpId);
      if (!c) return;
      if (url.pathname === "/cgi-bin/message/send") {
        if (String(body.agentid) !== token.app.agentId) return error(res, 40056, "invalid agentid");
        if (typeof body.touser !== "string" || !body.touser) return error(res, 81013, "user & party & tag all invalid");
        sent.push({ api: "message/send", to: body.touser, ...c, agentId: token.app.agentId, body });
        return answer(res, { errcode: 0, errmsg: "ok", invaliduser: "", msgid: crypto.randomBytes(12).toString("base64url") });
      }
      if (typeof body.chatid !== "string" || !body.chatid || (chats && !chats.has(body.chatid))) return error(res, 86003, "chat not exists");
      sent.push({ api: "appchat/send", to: body.chatid, ...c, agentId: token.app.agentId, body });
      return answer(res, { errcode: 0, errmsg: "ok" });
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    sent,
    state,
    /** A temporary media file uploaded by an app (by its media_id), with its bytes. */
    media: (mediaId: string) => media.get(mediaId),
    get tokenRequests() {
      return state.tokenRequests;
    },
    addApp: (app: TFakeWecomApp) => apps.push(app),
    /** Every token issued so far is expired from now on (WeCom answers 42001 to it). */
    expireTokens: () => {
      for (const t of issued.values()) t.expiresAt = 0;
    },
    /** WeCom forgets every token (as after another gettoken elsewhere invalidated them: 40014). */
    revokeTokens: () => issued.clear(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type TFakeWecom = Awaited<ReturnType<typeof startFakeWecom>>;

// Callbacks, as WeCom makes them ---------------------------------------------------------------

export type TWecomCallbackKeys = { token: string; encodingAesKey: string; corpId: string };

const nonce = () => String(crypto.randomInt(1e8, 1e10));
const now = () => String(Math.floor(Date.now() / 1000));

/** The query WeCom sends to verify a callback URL: echostr is `echo` sealed and signed. */
export function buildWecomVerification(keys: TWecomCallbackKeys, echo: string) {
  const echostr = encryptWecom(keys.encodingAesKey, echo, keys.corpId);
  const timestamp = now();
  const n = nonce();
  return new URLSearchParams({ msg_signature: wecomSignature(keys.token, timestamp, n, echostr), timestamp, nonce: n, echostr }).toString();
}

/** A message or event callback: the query (signature, timestamp, nonce) and the XML body with the sealed message. */
export function buildWecomCallback(keys: TWecomCallbackKeys & { agentId: string }, innerXml: string) {
  const encrypt = encryptWecom(keys.encodingAesKey, innerXml, keys.corpId);
  const timestamp = now();
  const n = nonce();
  const query = new URLSearchParams({ msg_signature: wecomSignature(keys.token, timestamp, n, encrypt), timestamp, nonce: n }).toString();
  return { query, body: buildWecomXml({ ToUserName: keys.corpId, AgentID: keys.agentId, Encrypt: encrypt }) };
}

/** What a member's text message to the app decrypts to. */
export function wecomTextXml(m: { corpId: string; agentId: string; from: string; content: string; msgId: string }) {
  return buildWecomXml({
    ToUserName: m.corpId,
    FromUserName: m.from,
    CreateTime: Math.floor(Date.now() / 1000),
    MsgType: "text",
    Content: m.content,
    MsgId: m.msgId,
    AgentID: Number(m.agentId),
  });
}

/** An event callback (subscribe, enter_agent...). */
export function wecomEventXml(m: { corpId: string; agentId: string; from: string; event: string }) {
  return buildWecomXml({
    ToUserName: m.corpId,
    FromUserName: m.from,
    CreateTime: Math.floor(Date.now() / 1000),
    MsgType: "event",
    Event: m.event,
    EventKey: "",
    AgentID: Number(m.agentId),
  });
}
