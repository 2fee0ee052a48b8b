// A loopback stand-in for DingTalk as a stream-mode robot meets it (api.dingtalk.com and the stream
// gateway), one server for all of it:
// - POST /v1.0/gateway/connections/open checks the app's clientId/clientSecret (401 authFailed
//   otherwise) and answers a websocket endpoint with a one-time ticket;
// - the websocket speaks the stream protocol: SYSTEM frames (ping, which the client must echo;
//   disconnect, before the server drops the socket), CALLBACK frames for the robot topic with
//   headers {appId, connectionId, contentType, messageId, time, topic} and the message as a JSON
//   string in `data`; the client's ACKs ({code: 200, headers: {messageId}, ...}) are recorded;
// - the session webhook each message carries, the app's accessToken, the robot's batchSend and
//   groupMessages/send (markdown, text, and pictures by photoURL: an uploaded media_id of the app or
//   a link), and AI cards (createAndDeliver, then PUT /v1.0/card/streaming), all recorded;
// - the older host's media upload (POST /media/upload?access_token=..., multipart fields "type" and
//   "media", DingTalk's formats and sizes), answering a media_id; the tests point both hosts here.
// Error codes marked "fake's own" stand where DingTalk's exact code does not matter to the client.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { isMp4, isMultipart, readForm, sniffPicture } from "./multipart-form";

export const ROBOT_TOPIC = "/v1.0/im/bot/messages/get";

export type TFakeDingtalkApp = { clientId: string; clientSecret: string };

export type TFakeRobotMessage = {
  msgId: string;
  msgtype: string;
  conversationId: string;
  conversationType: "1" | "2";
  conversationTitle?: string;
  senderId: string;
  senderNick: string;
  senderStaffId?: string;
  senderCorpId: string;
  chatbotCorpId: string;
  chatbotUserId: string;
  robotCode: string;
  isAdmin: boolean;
  isInAtList?: boolean;
  atUsers?: Array<{ dingtalkId: string; staffId?: string }>;
  sessionWebhook: string;
  sessionWebhookExpiredTime: number;
  createAt: number;
  text?: { content: string };
  content?: unknown;
};

type TFrame = { specVersion: string; type: "SYSTEM" | "CALLBACK" | "EVENT"; headers: Record<string, string>; data: string };
type TAnswer = { code: number; headers: Record<string, string>; message: string; data: string };

export type TDingtalkMedia = { clientId: string; type: string; filename: string; mime: string; bytes: Buffer };

const MB = 1024 * 1024;
/** Media files by type: the most bytes, and the formats DingTalk takes. */
const MEDIA_RULES: Record<string, { max: number; accepts: (b: Buffer) => boolean }> = {
  image: { max: 20 * MB, accepts: (b) => ["png", "jpeg", "gif", "bmp"].includes(sniffPicture(b) ?? "") },
  video: { max: 20 * MB, accepts: isMp4 },
  voice: { max: 2 * MB, accepts: () => true },
  file: { max: 20 * MB, accepts: () => true },
};

/** Whether a robot message's parameters fit its template (the keys the robot may send). */
function robotParamOk(msgKey: unknown, param: Record<string, unknown>, mediaOf: (id: string) => TDingtalkMedia | undefined, caller: string) {
  if (msgKey === "sampleMarkdown") return typeof param.title === "string" && typeof param.text === "string";
  if (msgKey === "sampleText") return typeof param.content === "string" && param.content.length > 0;
  if (msgKey === "sampleImageMsg") {
    const url = param.photoURL;
    if (typeof url !== "string") return false;
    return /^https?:\/\//.test(url) || (mediaOf(url)?.clientId === caller && mediaOf(url)?.type === "image");
  }
  return false;
}

export type TCardRecord = {
  outTrackId: string;
  broken?: boolean;
  create: Record<string, unknown>;
  updates: Array<{ guid: string; key: string; content: string; isFull: boolean; isFinalize: boolean; isError: boolean; at: number }>;
};

/** One fake for any number of apps (each bot is its own DingTalk app); `app` is the default one. */
export async function startFakeDingtalk(app: TFakeDingtalkApp, opts: { corpId?: string } = {}) {
  const corpId = opts.corpId ?? "ding-corp-0001";
  const apps = new Map<string, string>([[app.clientId, app.clientSecret]]);
  const tickets = new Map<string, { clientId: string; until: number }>();
  const sockets = new Map<WebSocket, string>();
  const connectionOpens: Array<{ clientId: string; subscriptions: Array<{ type: string; topic: string }> }> = [];
  const frames = new Map<string, TFrame>();
  const acks = new Map<string, TAnswer[]>();
  const pongs = new Map<string, TAnswer>();
  const sessions = new Map<string, { expiresAt: number; conversationId: string }>();
  const webhookPosts: Array<{ session: string; conversationId: string; body: Record<string, unknown> }> = [];
  const tokens = new Map<string, { clientId: string; until: number }>();
  let tokenRequests = 0;
  const batchSends: Array<Record<string, unknown>> = [];
  const groupSends: Array<Record<string, unknown>> = [];
  const cards = new Map<string, TCardRecord>();
  const media = new Map<string, TDingtalkMedia>();
  const mediaUploads: Array<{ mediaId: string } & TDingtalkMedia> = [];
  let refuseConnections = false;
  let connectionsOpened = 0;
  const connectionAttempts = new Map<string, number>();

  const json = (res: http.ServerResponse, status: number, payload: object) => {
    res.writeHead(status, { "content-type": "application/json;charset=utf-8" });
    res.end(JSON.stringify(payload));
  };
  const requestId = () => crypto.randomUUID().toUpperCase();
  /** The app whose live token the request carries, or null. */
  const tokenApp = (req: http.IncomingMessage) => {
    const t = tokens.get(String(req.headers["x-acs-dingtalk-access-token"] ?? ""));
    return t && t.until > Date.now() ? t.clientId : null;
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    if (method === "POST" && url.pathname === "/media/upload") return uploadMedia(req, res, url, Buffer.concat(chunks));
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return json(res, 400, { requestid: requestId(), code: "InvalidParameter", message: "bad JSON" });
    }

    if (method === "POST" && url.pathname === "/v1.0/gateway/connections/open") {
      const clientId = String(body.clientId ?? "");
      connectionAttempts.set(clientId, (connectionAttempts.get(clientId) ?? 0) + 1);
      if (refuseConnections) return json(res, 503, { requestid: requestId(), code: "ServiceUnavailable", message: "fake's own: connections refused for now" });
      if (!apps.has(clientId) || body.clientSecret !== apps.get(clientId))
        return json(res, 401, { requestid: requestId(), code: "authFailed", message: "鉴权失败" });
      const ticket = crypto.randomUUID();
      tickets.set(ticket, { clientId, until: Date.now() + 90_000 });
      connectionOpens.push({ clientId: String(body.clientId), subscriptions: (body.subscriptions as Array<{ type: string; topic: string }>) ?? [] });
      return json(res, 200, { endpoint: `ws://127.0.0.1:${port}/connect`, ticket });
    }

    if (method === "POST" && url.pathname === "/robot/sendBySession") {
      const session = url.searchParams.get("session") ?? "";
      const s = sessions.get(session);
      // fake's own errcode: a lapsed or unknown session refuses to post.
      if (!s || s.expiresAt < Date.now()) return json(res, 200, { errcode: 300001, errmsg: "session expired" });
      const markdown = body.markdown as { title?: unknown; text?: unknown } | undefined;
      if (body.msgtype !== "markdown" || typeof markdown?.title !== "string" || typeof markdown?.text !== "string")
        return json(res, 200, { errcode: 40035, errmsg: "缺少参数 markdown" });
      if ([...markdown.text].length > 5000) return json(res, 200, { errcode: 460101, errmsg: "message too long" });
      webhookPosts.push({ session, conversationId: s.conversationId, body });
      return json(res, 200, { errcode: 0, errmsg: "ok" });
    }

    if (method === "POST" && url.pathname === "/v1.0/oauth2/accessToken") {
      tokenRequests++;
      const appKey = String(body.appKey ?? "");
      if (!apps.has(appKey) || body.appSecret !== apps.get(appKey))
        return json(res, 400, { requestid: requestId(), code: "invalidClientSecret", message: "fake's own: appKey or appSecret refused" });
      const accessToken = crypto.randomBytes(16).toString("hex");
      tokens.set(accessToken, { clientId: appKey, until: Date.now() + 7200_000 });
      return json(res, 200, { accessToken, expireIn: 7200 });
    }

    const caller = tokenApp(req);
    if (url.pathname.startsWith("/v1.0/robot/") || url.pathname.startsWith("/v1.0/card/")) {
      if (!caller) return json(res, 401, { requestid: requestId(), code: "InvalidAuthentication", message: "不合法的access_token" });
    }

    if (method === "POST" && (url.pathname === "/v1.0/robot/oToMessages/batchSend" || url.pathname === "/v1.0/robot/groupMessages/send")) {
      const group = url.pathname.endsWith("/send");
      const okParam =
        typeof body.msgParam === "string" &&
        (() => {
          try {
            return robotParamOk(body.msgKey, JSON.parse(body.msgParam as string) as Record<string, unknown>, (id) => media.get(id), caller!);
          } catch {
            return false;
          }
        })();
      const okTarget = group
        ? typeof body.openConversationId === "string" && body.openConversationId.length > 0
        : Array.isArray(body.userIds) && body.userIds.length > 0;
      if (body.robotCode !== caller || !okParam || !okTarget)
        return json(res, 400, { requestid: requestId(), code: "invalidParameter", message: "fake's own: bad robot message" });
      (group ? groupSends : batchSends).push(body);
      return json(res, 200, group ? { processQueryKey: requestId() } : { processQueryKey: requestId(), invalidStaffIdList: [], flowControlledStaffIdList: [] });
    }

    if (method === "POST" && url.pathname === "/v1.0/card/instances/createAndDeliver") {
      const outTrackId = String(body.outTrackId ?? "");
      const space = String(body.openSpaceId ?? "");
      const m = /^dtv1\.card\/\/(IM_ROBOT|IM_GROUP)\.(.+)$/.exec(space);
      const deliverOk =
        m?.[1] === "IM_ROBOT"
          ? (body.imRobotOpenDeliverModel as { spaceType?: string } | undefined)?.spaceType === "IM_ROBOT"
          : m?.[1] === "IM_GROUP" && (body.imGroupOpenDeliverModel as { robotCode?: string } | undefined)?.robotCode === caller;
      if (!outTrackId || cards.has(outTrackId) || !body.cardTemplateId || !deliverOk || typeof body.cardData !== "object")
        return json(res, 400, { requestid: requestId(), code: "invalidParameter", message: "fake's own: bad card" });
      cards.set(outTrackId, { outTrackId, create: body, updates: [] });
      return json(res, 200, {
        success: true,
        result: { outTrackId, deliverResults: [{ spaceType: m![1], spaceId: m![2], success: true, carrierId: requestId() }] },
      });
    }

    if (method === "PUT" && url.pathname === "/v1.0/card/streaming") {
      const card = cards.get(String(body.outTrackId ?? ""));
      if (!card) return json(res, 400, { requestid: requestId(), code: "cardNotExist", message: "fake's own: no such card" });
      if (card.broken) return json(res, 400, { requestid: requestId(), code: "cardNotExist", message: "fake's own: the card is gone" });
      if (card.updates.some((u) => u.isFinalize))
        return json(res, 400, { requestid: requestId(), code: "cardFinalized", message: "fake's own: the card was finalized" });
      if (typeof body.guid !== "string" || typeof body.key !== "string" || typeof body.content !== "string")
        return json(res, 400, { requestid: requestId(), code: "invalidParameter", message: "fake's own: bad streaming update" });
      card.updates.push({
        guid: body.guid,
        key: body.key,
        content: body.content,
        isFull: body.isFull === true,
        isFinalize: body.isFinalize === true,
        isError: body.isError === true,
        at: Date.now(),
      });
      return json(res, 200, { success: true, result: true });
    }

    json(res, 404, { requestid: requestId(), code: "notFound", message: `fake: no ${method} ${url.pathname}` });
  });

  /** The older host's media upload: the token in the query, {errcode, errmsg} answers. */
  async function uploadMedia(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer) {
    const errcode = (code: number, errmsg: string) => json(res, 200, { errcode: code, errmsg });
    const t = tokens.get(url.searchParams.get("access_token") ?? "");
    if (!t || t.until <= Date.now()) return errcode(40014, "不合法的access_token");
    if (!isMultipart(req.headers["content-type"])) return errcode(41005, "缺少多媒体文件数据");
    const form = await readForm(req.headers["content-type"]!, body).catch(() => null);
    const type = form?.fields.type ?? url.searchParams.get("type") ?? "";
    const rule = MEDIA_RULES[type];
    if (!rule) return errcode(40004, "不合法的媒体文件类型");
    const file = form?.files.find((f) => f.field === "media");
    if (!file || !file.filename || !file.bytes.length) return errcode(41005, "缺少多媒体文件数据");
    if (file.bytes.length > rule.max) return errcode(40006, "不合法的文件大小");
    if (!rule.accepts(file.bytes)) return errcode(40005, "不合法的文件类型");
    const mediaId = `@lA${crypto.randomBytes(18).toString("base64url")}`;
    const record = { clientId: t.clientId, type, filename: file.filename, mime: file.mime, bytes: file.bytes };
    media.set(mediaId, record);
    mediaUploads.push({ mediaId, ...record });
    json(res, 200, { errcode: 0, errmsg: "ok", type, media_id: mediaId, created_at: Date.now() });
  }

  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const ticket = tickets.get(url.searchParams.get("ticket") ?? "");
    tickets.delete(url.searchParams.get("ticket") ?? "");
    if (url.pathname !== "/connect" || !ticket || ticket.until < Date.now()) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      connectionsOpened++;
      sockets.set(ws, ticket.clientId);
      ws.on("close", () => sockets.delete(ws));
      ws.on("message", (data) => {
        let answer: TAnswer;
        try {
          answer = JSON.parse(String(data)) as TAnswer;
        } catch {
          return;
        }
        const id = answer.headers?.messageId ?? "";
        if (answer.headers?.topic === "ping") pongs.set(id, answer);
        else if (frames.has(id)) acks.set(id, [...(acks.get(id) ?? []), answer]);
      });
    });
  });

  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  const live = (clientId?: string) => [...sockets].filter(([s, id]) => s.readyState === 1 && (!clientId || id === clientId)).map(([s]) => s);
  const newest = (clientId: string) => {
    const ws = live(clientId).at(-1);
    if (!ws) throw new Error(`fake dingtalk: no stream connection of ${clientId}`);
    return ws;
  };
  const frameHeaders = (clientId: string, topic: string, messageId: string) => ({
    appId: clientId,
    connectionId: crypto.randomUUID(),
    contentType: "application/json",
    messageId,
    time: String(Date.now()),
    topic,
  });

  function sendFrame(frame: TFrame) {
    newest(frame.headers.appId).send(JSON.stringify(frame));
  }

  /** A robot message as DingTalk writes it; `over` changes any field. */
  function robotMessage(over: Partial<TFakeRobotMessage> & { text?: { content: string } } = {}): TFakeRobotMessage {
    const group = over.conversationType === "2";
    const conversationId = over.conversationId ?? `cid${crypto.randomBytes(12).toString("base64url")}==`;
    const session = crypto.randomBytes(12).toString("hex");
    const expiresAt = over.sessionWebhookExpiredTime ?? Date.now() + 90 * 60_000;
    sessions.set(session, { expiresAt, conversationId });
    return {
      msgId: `msg${crypto.randomBytes(10).toString("base64url")}`,
      msgtype: "text",
      conversationId,
      conversationType: group ? "2" : "1",
      ...(group ? { conversationTitle: "Test group", isInAtList: false } : {}),
      senderId: `$:LWCP_v1:$${crypto.randomBytes(12).toString("base64")}`,
      senderNick: "Li Lei",
      senderStaffId: "staff001",
      senderCorpId: corpId,
      chatbotCorpId: corpId,
      chatbotUserId: `$:LWCP_v1:$bot${crypto.randomBytes(8).toString("hex")}`,
      robotCode: app.clientId,
      isAdmin: false,
      sessionWebhook: `${base}/robot/sendBySession?session=${session}`,
      sessionWebhookExpiredTime: expiresAt,
      createAt: Date.now(),
      text: { content: "hello" },
      ...over,
    };
  }

  /** Pushes a robot message down the newest connection; answers the frame's messageId. */
  function deliver(message: TFakeRobotMessage): string {
    const messageId = crypto.randomUUID();
    const frame: TFrame = {
      specVersion: "1.0",
      type: "CALLBACK",
      headers: frameHeaders(message.robotCode, ROBOT_TOPIC, messageId),
      data: JSON.stringify(message),
    };
    frames.set(messageId, frame);
    sendFrame(frame);
    return messageId;
  }

  /** Delivers a frame again, as DingTalk does when it was not acknowledged in time (same messageId). */
  function redeliver(messageId: string) {
    const frame = frames.get(messageId);
    if (!frame) throw new Error(`fake dingtalk: no frame ${messageId}`);
    sendFrame({ ...frame, headers: { ...frame.headers, time: String(Date.now()) } });
  }

  /** Redelivers every frame not acknowledged yet; answers their ids. */
  function redeliverUnacked(): string[] {
    const ids = [...frames.keys()].filter((id) => !acks.has(id));
    ids.forEach(redeliver);
    return ids;
  }

  /** A SYSTEM ping; resolves with the client's echo (or rejects after `ms`). */
  async function ping(clientId = app.clientId, ms = 5000): Promise<TAnswer> {
    const messageId = crypto.randomUUID();
    const opaque = crypto.randomUUID();
    sendFrame({ specVersion: "1.0", type: "SYSTEM", headers: frameHeaders(clientId, "ping", messageId), data: JSON.stringify({ opaque }) });
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const answer = pongs.get(messageId);
      if (answer) return answer;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("fake dingtalk: no answer to ping");
  }

  return {
    base,
    app,
    /** Another DingTalk app (another bot) this fake knows. */
    addApp(other: TFakeDingtalkApp) {
      apps.set(other.clientId, other.clientSecret);
    },
    robotMessage,
    deliver,
    redeliver,
    redeliverUnacked,
    ping,
    acks,
    isAcked: (messageId: string) => (acks.get(messageId)?.length ?? 0) > 0,
    webhookPosts,
    batchSends,
    groupSends,
    cards,
    /** An uploaded media file by its media_id, with its bytes. */
    media: (mediaId: string) => media.get(mediaId),
    mediaUploads,
    connectionOpens,
    get tokenRequests() {
      return tokenRequests;
    },
    /** Calls of connections/open for `clientId`, refused or not. */
    connectionAttempts: (clientId = app.clientId) => connectionAttempts.get(clientId) ?? 0,
    get connectionsOpened() {
      return connectionsOpened;
    },
    liveConnections: (clientId = app.clientId) => live(clientId).length,
    /** Writes anything down the newest connection (a frame the client cannot read). */
    sendRaw(text: string, clientId = app.clientId) {
      newest(clientId).send(text);
    },
    /** Drops the app's stream sockets without a word (a network failure). */
    dropSockets(clientId = app.clientId) {
      for (const ws of live(clientId)) ws.terminate();
    },
    /** DingTalk moving the connection: a `disconnect` frame, then the socket goes after `afterMs`. */
    sendDisconnect(afterMs = 10_000, clientId = app.clientId) {
      const ws = newest(clientId);
      ws.send(
        JSON.stringify({
          specVersion: "1.0",
          type: "SYSTEM",
          headers: frameHeaders(clientId, "disconnect", crypto.randomUUID()),
          data: JSON.stringify({ reason: "server is going to restart" }),
        }),
      );
      setTimeout(() => ws.terminate(), afterMs).unref();
    },
    /** The card stops accepting updates (recalled in the chat, say). */
    breakCard(outTrackId: string) {
      const card = cards.get(outTrackId);
      if (!card) throw new Error(`fake dingtalk: no card ${outTrackId}`);
      card.broken = true;
    },
    /** While set, connections/open answers 503 (DingTalk unreachable). */
    setRefuseConnections(on: boolean) {
      refuseConnections = on;
    },
    /** Every issued access token stops working (as after a secret reset). */
    expireTokens() {
      for (const t of tokens.values()) t.until = 0;
    },
    /** The environment that points Zelin at this fake. */
    env: (): Record<string, string> => ({ DINGTALK_API_BASE: base, DINGTALK_OAPI_BASE: base }),
    async close() {
      for (const ws of sockets.keys()) ws.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
export type TFakeDingtalk = Awaited<ReturnType<typeof startFakeDingtalk>>;
