// A loopback stand-in for Feishu's open platform (open.feishu.cn), for what the bots use:
// - the open API: tenant_access_token/internal, bot/v3/info, im/v1/messages create, reply and
//   patch, with Feishu's answers and refusals (bad secret, unknown token, unknown message, a card
//   too big or not shared, more than 5 updates a second to one message), each call recorded;
//   uploads (im/v1/images for pictures, im/v1/files for videos and files: multipart, Feishu's
//   fields, formats and sizes) whose keys image, media and file messages must name;
// - the long connection the SDK's WSClient holds: POST /callback/ws/endpoint gives a one-time
//   wss URL, then protobuf frames (pbbp2.Frame: ping/pong control frames, event data frames
//   answered by an ACK frame), encoded here by hand from the schema so the SDK's own decoder
//   checks them; events can be split into fragments (sum/seq) as Feishu does with big ones;
// - webhook mode: events as Feishu posts them to an event URL, encrypted with the app's encrypt
//   key and signed (X-Lark-Signature), or plain when the app has no key.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { isMp4, isMultipart, readForm, sniffPicture, type TForm } from "./multipart-form";

export type TFakeFeishuApp = {
  appId: string;
  appSecret: string;
  botOpenId: string;
  botName: string;
  encryptKey: string;
  verificationToken: string;
  tenantKey: string;
};

export function makeFeishuApp(over: Partial<TFakeFeishuApp> = {}): TFakeFeishuApp {
  const hex = (n: number) => crypto.randomBytes(n).toString("hex");
  return {
    appId: `cli_${hex(8)}`,
    appSecret: hex(16),
    botOpenId: `ou_${hex(16)}`,
    botName: "Zelin Bot",
    encryptKey: hex(12),
    verificationToken: hex(12),
    tenantKey: hex(8),
    ...over,
  };
}

export type TFeishuSent = {
  kind: "create" | "reply";
  appId: string;
  messageId: string;
  chatId: string;
  msgType: string;
  /** The message's content, parsed (a card for interactive messages). */
  content: any;
  receiveIdType?: string;
  receiveId?: string;
  replyTo?: string;
  uuid?: string;
  at: number;
  patches: { content: any; at: number }[];
};

export type TFakeUser = { openId: string; name?: string };

const CARD_MAX_BYTES = 30 * 1024;
const PATCHES_PER_SECOND = 5;
const MB = 1024 * 1024;
const FILE_TYPES = ["opus", "mp4", "pdf", "doc", "xls", "ppt", "stream"];

/** What an app uploaded: a picture (image_key) or a file (file_key), with its bytes. */
export type TFeishuUpload = { appId: string; kind: "image" | "file"; fileType?: string; fileName?: string; durationMs?: number; bytes: Buffer };

export async function startFakeFeishu(opts: { apps: TFakeFeishuApp[]; clientConfig?: Partial<TClientConfig> }) {
  const apps = new Map(opts.apps.map((a) => [a.appId, a]));
  const clientConfig: TClientConfig = { PingInterval: 120, ReconnectCount: -1, ReconnectInterval: 120, ReconnectNonce: 30, ...opts.clientConfig };
  const tokens = new Map<string, string>();
  /** Messages that exist in chats: the users' (delivered in events) and the bots' (sent). */
  const messages = new Map<string, { appId: string; chatId: string; fromApp: boolean; msgType: string }>();
  const sent: TFeishuSent[] = [];
  const requests: { method: string; path: string; appId: string | null; code: number }[] = [];
  const uuids = new Map<string, TFeishuSent>();
  const uploads = new Map<string, TFeishuUpload>();
  const tickets = new Map<string, string>();
  const sockets = new Map<string, Set<WebSocket>>();
  const pings = new Map<string, number>();
  const refusing = new Set<string>();
  const pendingAcks = new Map<string, (ack: TAck) => void>();
  const acks: TAck[] = [];
  let seq = 1;

  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      if (isMultipart(req.headers["content-type"])) return void upload(req, res, url, Buffer.concat(chunks));
      let body: any;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
      } catch {
        return answer(res, 400, { code: 9499, msg: "Bad Request" }, req, null);
      }
      route(req, res, url, body);
    });
  });

  function answer(res: http.ServerResponse, status: number, body: Record<string, unknown>, req: http.IncomingMessage, appId: string | null) {
    requests.push({ method: req.method ?? "", path: new URL(req.url ?? "/", "http://fake").pathname, appId, code: Number(body.code ?? 0) });
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  }

  function route(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: any) {
    const path = url.pathname;
    if (req.method === "POST" && path === "/open-apis/auth/v3/tenant_access_token/internal") {
      const app = apps.get(body.app_id);
      if (!app) return answer(res, 400, { code: 10003, msg: "invalid param" }, req, null);
      if (body.app_secret !== app.appSecret) return answer(res, 400, { code: 10014, msg: "app secret invalid" }, req, app.appId);
      const token = `t-${crypto.randomBytes(20).toString("hex")}`;
      tokens.set(token, app.appId);
      return answer(res, 200, { code: 0, msg: "ok", tenant_access_token: token, expire: 7200 }, req, app.appId);
    }
    if (req.method === "POST" && path === "/callback/ws/endpoint") {
      const app = apps.get(body.AppID);
      // The SDK reads data before it reads code: Feishu's refusals carry an empty data.
      if (!app || body.AppSecret !== app.appSecret) return answer(res, 200, { code: 514, msg: "auth failed", data: {} }, req, app?.appId ?? null);
      if (refusing.has(app.appId)) return answer(res, 200, { code: 1000040343, msg: "system busy", data: {} }, req, app.appId);
      const ticket = crypto.randomBytes(16).toString("hex");
      tickets.set(ticket, app.appId);
      const port = (server.address() as AddressInfo).port;
      const URL_ = `ws://127.0.0.1:${port}/ws/v2?fpid=493&aid=552564&device_id=${crypto.randomInt(1e9)}&access_key=${crypto.randomBytes(8).toString("hex")}&service_id=${33554678}&ticket=${ticket}`;
      return answer(res, 200, { code: 0, msg: "ok", data: { URL: URL_, ClientConfig: clientConfig } }, req, app.appId);
    }
    const appId = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, "")) ?? null;
    if (path.startsWith("/open-apis/") && !appId)
      return answer(res, 400, { code: 99991663, msg: "Invalid access token for authorization. Please make a request with token attached." }, req, null);
    if (req.method === "GET" && path === "/open-apis/bot/v3/info") {
      const app = apps.get(appId!)!;
      return answer(
        res,
        200,
        { code: 0, msg: "ok", bot: { activate_status: 2, app_name: app.botName, avatar_url: "", ip_white_list: [], open_id: app.botOpenId } },
        req,
        appId,
      );
    }
    if (req.method === "POST" && path === "/open-apis/im/v1/messages") {
      const type = url.searchParams.get("receive_id_type");
      const id = String(body.receive_id ?? "");
      const chatId = type === "chat_id" && id.startsWith("oc_") ? id : type === "open_id" && id.startsWith("ou_") ? p2pChatId(appId!, id) : null;
      if (!chatId) return answer(res, 400, { code: 230001, msg: "Your request contains an invalid request parameter, ext=invalid receive_id" }, req, appId);
      return deliver(req, res, appId!, body, { kind: "create", chatId, receiveIdType: type!, receiveId: id });
    }
    const reply = /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reply$/.exec(path);
    if (req.method === "POST" && reply) {
      const parent = messages.get(reply[1]);
      if (!parent || parent.appId !== appId) return answer(res, 400, { code: 230011, msg: "The message was not found" }, req, appId);
      return deliver(req, res, appId!, body, { kind: "reply", chatId: parent.chatId, replyTo: reply[1] });
    }
    const patch = /^\/open-apis\/im\/v1\/messages\/([^/]+)$/.exec(path);
    if (req.method === "PATCH" && patch) {
      const record = sent.find((s) => s.messageId === patch[1]);
      if (!record || record.appId !== appId) return answer(res, 400, { code: 230011, msg: "The message was not found" }, req, appId);
      if (record.msgType !== "interactive") return answer(res, 400, { code: 230001, msg: "only cards can be updated" }, req, appId);
      const card = parseCard(body.content);
      if (!card.ok) return answer(res, 400, { code: card.code, msg: card.msg }, req, appId);
      if (!(card.value.schema === "2.0" || card.value.config?.update_multi === true))
        return answer(res, 400, { code: 230099, msg: "Failed to update card: only shared cards (update_multi) can be updated" }, req, appId);
      const now = Date.now();
      if (record.patches.filter((p) => now - p.at < 1000).length >= PATCHES_PER_SECOND)
        return answer(res, 400, { code: 230020, msg: "This operation triggers the frequency limit" }, req, appId);
      record.patches.push({ content: card.value, at: now });
      return answer(res, 200, { code: 0, msg: "success", data: {} }, req, appId);
    }
    answer(res, 404, { code: 404, msg: "404 page not found" }, req, appId);
  }

  /** im/v1/images and im/v1/files: Feishu's fields, sizes and formats; answers the new key. */
  async function upload(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer) {
    const appId = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, "")) ?? null;
    const refuse = (code: number, msg: string) => answer(res, 400, { code, msg }, req, appId);
    if (!appId) return refuse(99991663, "Invalid access token for authorization. Please make a request with token attached.");
    const form: TForm | null = await readForm(req.headers["content-type"]!, raw).catch(() => null);
    if (!form || req.method !== "POST") return refuse(234001, "Invalid request param.");
    if (url.pathname === "/open-apis/im/v1/images") {
      const image = form.files.find((f) => f.field === "image");
      if (!["message", "avatar"].includes(form.fields.image_type ?? "") || !image) return refuse(234001, "Invalid request param.");
      if (!image.bytes.length) return refuse(234010, "File's size can't be 0.");
      if (image.bytes.length > 10 * MB) return refuse(234006, "The file size exceed the max value.");
      if (!sniffPicture(image.bytes)) return refuse(234011, "Can't regonnize the image format.");
      const key = `img_v3_${crypto.randomBytes(12).toString("hex")}`;
      uploads.set(key, { appId, kind: "image", bytes: image.bytes });
      return answer(res, 200, { code: 0, msg: "success", data: { image_key: key } }, req, appId);
    }
    if (url.pathname === "/open-apis/im/v1/files") {
      const file = form.files.find((f) => f.field === "file");
      const { file_type: type, file_name: name, duration } = form.fields;
      if (!FILE_TYPES.includes(type ?? "") || !name || !file || (duration !== undefined && !/^\d+$/.test(duration)))
        return refuse(234001, "Invalid request param.");
      if (!file.bytes.length) return refuse(234010, "File's size can't be 0.");
      if (file.bytes.length > 30 * MB) return refuse(234006, "The file size exceed the max value.");
      if (type === "mp4" && !isMp4(file.bytes)) return refuse(234001, "Invalid request param.");
      const key = `file_v3_${crypto.randomBytes(12).toString("hex")}`;
      uploads.set(key, { appId, kind: "file", fileType: type, fileName: name, durationMs: duration ? Number(duration) : undefined, bytes: file.bytes });
      return answer(res, 200, { code: 0, msg: "success", data: { file_key: key } }, req, appId);
    }
    answer(res, 404, { code: 404, msg: "404 page not found" }, req, appId);
  }

  /** Whether an image, media or file message names keys this app uploaded (a media message an MP4, with an optional cover). */
  function uploadedKeysOk(appId: string, msgType: string, content: any) {
    const own = (key: unknown, kind: "image" | "file") => typeof key === "string" && uploads.get(key)?.appId === appId && uploads.get(key)?.kind === kind;
    if (msgType === "image") return own(content?.image_key, "image");
    if (msgType === "file") return own(content?.file_key, "file");
    if (msgType === "media")
      return (
        own(content?.file_key, "file") &&
        uploads.get(content.file_key)?.fileType === "mp4" &&
        (content.image_key === undefined || own(content.image_key, "image"))
      );
    return true;
  }

  function deliver(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    appId: string,
    body: any,
    where: Pick<TFeishuSent, "kind" | "chatId" | "receiveIdType" | "receiveId" | "replyTo">,
  ) {
    const msgType = String(body.msg_type ?? "");
    if (!["text", "post", "interactive", "image", "media", "file"].includes(msgType))
      return answer(res, 400, { code: 230001, msg: "invalid msg_type" }, req, appId);
    let content: any;
    if (msgType === "interactive") {
      const card = parseCard(body.content);
      if (!card.ok) return answer(res, 400, { code: card.code, msg: card.msg }, req, appId);
      content = card.value;
    } else {
      try {
        content = JSON.parse(String(body.content));
      } catch {
        return answer(res, 400, { code: 230001, msg: "invalid content" }, req, appId);
      }
      if (!uploadedKeysOk(appId, msgType, content))
        return answer(res, 400, { code: 230001, msg: "Your request contains an invalid request parameter, ext=invalid image_key or file_key" }, req, appId);
    }
    const uuidKey = body.uuid ? `${appId}:${body.uuid}` : null;
    let record = uuidKey ? uuids.get(uuidKey) : undefined;
    if (!record) {
      record = { ...where, appId, messageId: messageIdOf(), msgType, content, uuid: body.uuid, at: Date.now(), patches: [] };
      sent.push(record);
      messages.set(record.messageId, { appId, chatId: record.chatId, fromApp: true, msgType });
      if (uuidKey) uuids.set(uuidKey, record);
    }
    const app = apps.get(appId)!;
    const ms = String(record.at);
    return answer(
      res,
      200,
      {
        code: 0,
        msg: "success",
        data: {
          message_id: record.messageId,
          root_id: record.replyTo ?? "",
          parent_id: record.replyTo ?? "",
          msg_type: msgType,
          create_time: ms,
          update_time: ms,
          deleted: false,
          updated: false,
          chat_id: record.chatId,
          sender: { id: appId, id_type: "app_id", sender_type: "app", tenant_key: app.tenantKey },
          body: { content: String(body.content) },
          mentions: [],
        },
      },
      req,
      appId,
    );
  }

  // The long connection -------------------------------------------------------------------------

  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const ticket = url.searchParams.get("ticket") ?? "";
    const appId = tickets.get(ticket);
    tickets.delete(ticket);
    if (url.pathname !== "/ws/v2" || !appId || refusing.has(appId)) {
      socket.end("HTTP/1.1 403 Forbidden\r\nhandshake-status: 403\r\nhandshake-msg: invalid ticket\r\nconnection: close\r\n\r\n");
      return;
    }
    const service = Number(url.searchParams.get("service_id"));
    wss.handleUpgrade(req, socket, head, (ws) => {
      const set = sockets.get(appId) ?? new Set<WebSocket>();
      set.add(ws);
      sockets.set(appId, set);
      ws.on("close", () => set.delete(ws));
      ws.on("message", (data: Buffer) => {
        let frame: TFrame;
        try {
          frame = decodeFrame(new Uint8Array(data));
        } catch {
          return ws.close(1002, "bad frame");
        }
        const type = frame.headers.find((h) => h.key === "type")?.value;
        if (frame.method === FRAME_CONTROL && type === "ping") {
          pings.set(appId, (pings.get(appId) ?? 0) + 1);
          ws.send(
            encodeFrame({
              SeqID: 0,
              LogID: 0,
              service,
              method: FRAME_CONTROL,
              headers: [{ key: "type", value: "pong" }],
              payload: Buffer.from(JSON.stringify(clientConfig)),
            }),
          );
          return;
        }
        if (frame.method === FRAME_DATA) {
          const headers = Object.fromEntries(frame.headers.map((h) => [h.key, h.value]));
          const ack: TAck = {
            appId,
            messageId: headers.message_id ?? "",
            headers,
            payload: JSON.parse(Buffer.from(frame.payload ?? []).toString("utf8") || "{}"),
          };
          acks.push(ack);
          pendingAcks.get(ack.messageId)?.(ack);
          pendingAcks.delete(ack.messageId);
        }
      });
    });
  });

  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function app(appId: string) {
    const a = apps.get(appId);
    if (!a) throw new Error(`fake feishu: unknown app ${appId}`);
    return a;
  }

  /** A v2 event as Feishu builds it (the message ids in it become messages the bot may reply to). */
  function event(a: TFakeFeishuApp, eventType: string, body: Record<string, unknown>) {
    return {
      schema: "2.0",
      header: {
        event_id: crypto.randomBytes(16).toString("hex"),
        token: a.verificationToken,
        create_time: String(Date.now() * 1000),
        event_type: eventType,
        tenant_key: a.tenantKey,
        app_id: a.appId,
      },
      event: body,
    };
  }
  const userId = (a: TFakeFeishuApp, u: TFakeUser) => ({
    union_id: `on_${hash(u.openId).slice(0, 32)}`,
    user_id: hash(`${u.openId}:uid`).slice(0, 8),
    open_id: u.openId,
  });

  return {
    base,
    env: () => ({ FEISHU_DOMAIN: base }),
    sent,
    requests,
    acks,
    /** An upload by its image_key or file_key, with its bytes. */
    upload: (key: string) => uploads.get(key),
    addApp(a: TFakeFeishuApp) {
      apps.set(a.appId, a);
    },
    /** What the bot sent into a chat (by chat id), oldest first. */
    sentTo: (chatId: string) => sent.filter((s) => s.chatId === chatId),
    repliesTo: (messageId: string) => sent.filter((s) => s.replyTo === messageId),
    p2pChatId: (appId: string, openId: string) => p2pChatId(appId, openId),
    connections: (appId: string) => sockets.get(appId)?.size ?? 0,
    pings: (appId: string) => pings.get(appId) ?? 0,
    /** While refusing, the endpoint answers "system busy" and the socket handshake fails. */
    refuse(appId: string, on: boolean) {
      if (on) refusing.add(appId);
      else refusing.delete(appId);
    },
    /** Feishu ends the long connections (a deploy on its side, a network cut). */
    drop(appId: string) {
      for (const ws of sockets.get(appId) ?? []) ws.terminate();
    },
    /** Forgets every token issued (an app secret reset): calls with them are refused until a new one is fetched. */
    revokeTokens(appId: string) {
      for (const [t, id] of tokens) if (id === appId) tokens.delete(t);
    },

    messageEvent(
      appId: string,
      m: {
        chatType: "p2p" | "group";
        chatId?: string;
        sender: TFakeUser;
        text: string;
        mentions?: (TFakeUser & { bot?: boolean })[];
        messageId?: string;
        messageType?: string;
        content?: string;
      },
    ) {
      const a = app(appId);
      const messageId = m.messageId ?? messageIdOf();
      const chatId = m.chatType === "p2p" ? p2pChatId(appId, m.sender.openId) : (m.chatId ?? `oc_${hash(`${appId}:group`).slice(0, 32)}`);
      messages.set(messageId, { appId, chatId, fromApp: false, msgType: m.messageType ?? "text" });
      const mentions = (m.mentions ?? []).map((u, i) => ({
        key: `@_user_${i + 1}`,
        id: u.bot ? { union_id: "", user_id: "", open_id: a.botOpenId } : userId(a, u),
        name: u.bot ? a.botName : (u.name ?? "User"),
        tenant_key: a.tenantKey,
      }));
      const now = String(Date.now());
      const body = event(a, "im.message.receive_v1", {
        sender: { sender_id: userId(a, m.sender), sender_type: "user", tenant_key: a.tenantKey },
        message: {
          message_id: messageId,
          root_id: "",
          parent_id: "",
          create_time: now,
          update_time: now,
          chat_id: chatId,
          thread_id: "",
          chat_type: m.chatType,
          message_type: m.messageType ?? "text",
          content: m.content ?? JSON.stringify({ text: m.text }),
          ...(mentions.length ? { mentions } : {}),
          user_agent: "Mozilla/5.0 Lark/7.30.0",
        },
      });
      return { body, messageId, chatId };
    },
    userAddedEvent(appId: string, g: { chatId: string; chatName?: string; users: TFakeUser[]; operator?: TFakeUser }) {
      const a = app(appId);
      const operator = g.operator ?? g.users[0];
      return event(a, "im.chat.member.user.added_v1", {
        chat_id: g.chatId,
        operator_id: userId(a, operator),
        external: false,
        operator_tenant_key: a.tenantKey,
        users: g.users.map((u) => ({ name: u.name ?? "User", tenant_key: a.tenantKey, user_id: userId(a, u) })),
        name: g.chatName ?? "Group",
        i18n_names: {},
      });
    },
    p2pEnteredEvent(appId: string, user: TFakeUser) {
      const a = app(appId);
      return event(a, "im.chat.access_event.bot_p2p_chat_entered_v1", {
        chat_id: p2pChatId(appId, user.openId),
        operator_id: userId(a, user),
        last_message_id: "",
        last_message_create_time: "",
      });
    },
    urlVerification(appId: string, challenge = crypto.randomUUID()) {
      return { challenge, token: app(appId).verificationToken, type: "url_verification" };
    },

    /** Sends an event down the app's newest long connection and waits for the SDK's ACK. */
    async push(appId: string, body: unknown, o: { fragments?: number; timeoutMs?: number } = {}): Promise<TAck> {
      const ws = [...(sockets.get(appId) ?? [])].at(-1);
      if (!ws) throw new Error(`fake feishu: ${appId} has no long connection`);
      const messageId = crypto.randomUUID();
      const traceId = crypto.randomBytes(8).toString("hex");
      const bytes = Buffer.from(JSON.stringify(body), "utf8");
      const n = Math.max(1, o.fragments ?? 1);
      const size = Math.ceil(bytes.length / n);
      const acked = new Promise<TAck>((resolve, reject) => {
        const timer = setTimeout(() => {
          pendingAcks.delete(messageId);
          reject(new Error("fake feishu: no ACK"));
        }, o.timeoutMs ?? 5000);
        pendingAcks.set(messageId, (ack) => {
          clearTimeout(timer);
          resolve(ack);
        });
      });
      for (let i = 0; i < n; i++) {
        const headers = [
          { key: "type", value: "event" },
          { key: "message_id", value: messageId },
          { key: "sum", value: String(n) },
          { key: "seq", value: String(i) },
          { key: "trace_id", value: traceId },
        ];
        ws.send(
          encodeFrame({
            SeqID: seq++,
            LogID: seq,
            service: 33554678,
            method: FRAME_DATA,
            headers,
            payloadType: "",
            payload: bytes.subarray(i * size, (i + 1) * size),
          }),
        );
      }
      return acked;
    },

    /** The request Feishu makes to an event URL: encrypted and signed when the app has an encrypt key. */
    callbackRequest(appId: string, body: unknown, o: { badSignature?: boolean; encryptKey?: string } = {}) {
      const a = app(appId);
      const key = o.encryptKey ?? a.encryptKey;
      const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "user-agent": "Go-http-client/1.1" };
      if (!key) return { headers, body: JSON.stringify(body) };
      const raw = JSON.stringify({ encrypt: encryptFeishu(key, JSON.stringify(body)) });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = crypto.randomBytes(8).toString("hex");
      const signature = crypto
        .createHash("sha256")
        .update(timestamp + nonce + key + raw)
        .digest("hex");
      Object.assign(headers, {
        "x-lark-request-timestamp": timestamp,
        "x-lark-request-nonce": nonce,
        "x-lark-signature": o.badSignature ? signature.replace(/^./, (c) => (c === "0" ? "1" : "0")) : signature,
      });
      return { headers, body: raw };
    },
    /** Posts an event to an event URL as Feishu does; answers the status and the parsed body. */
    async callback(url: string, appId: string, body: unknown, o: { badSignature?: boolean; encryptKey?: string } = {}) {
      const r = this.callbackRequest(appId, body, o);
      const res = await fetch(url, { method: "POST", headers: r.headers, body: r.body });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    },

    close: async () => {
      for (const set of sockets.values()) for (const ws of set) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type TFakeFeishu = Awaited<ReturnType<typeof startFakeFeishu>>;
export type TAck = { appId: string; messageId: string; headers: Record<string, string>; payload: { code?: number; data?: string } };
type TClientConfig = { PingInterval: number; ReconnectCount: number; ReconnectInterval: number; ReconnectNonce: number };

const hash = (s: string) => crypto.createHash("sha256").update(s).digest("hex");
const messageIdOf = () => `om_${crypto.randomBytes(16).toString("hex")}`;
const p2pChatId = (appId: string, openId: string) => `oc_${hash(`${appId}:${openId}`).slice(0, 32)}`;

function parseCard(content: unknown): { ok: true; value: any } | { ok: false; code: number; msg: string } {
  const text = String(content ?? "");
  if (Buffer.byteLength(text, "utf8") > CARD_MAX_BYTES) return { ok: false, code: 230025, msg: "The length of the message content reaches its limit" };
  try {
    const value = JSON.parse(text);
    const elements = value?.schema === "2.0" ? value?.body?.elements : value?.elements;
    if (!Array.isArray(elements)) return { ok: false, code: 230099, msg: "Failed to create card content: elements missing" };
    return { ok: true, value };
  } catch {
    return { ok: false, code: 230099, msg: "Failed to create card content: invalid JSON" };
  }
}

/** Feishu's event encryption: base64(iv + AES-256-CBC(sha256(encrypt key), iv, PKCS#7(plain))). */
export function encryptFeishu(encryptKey: string, plain: string): string {
  const key = crypto.createHash("sha256").update(encryptKey).digest();
  const iv = crypto.randomBytes(16);
  const cipher = crypto.createCipheriv("aes-256-cbc", key, iv);
  return Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
}

// pbbp2.Frame, the long connection's protobuf message ---------------------------------------------
// message Header { required string key = 1; required string value = 2; }
// message Frame { required uint64 SeqID = 1; required uint64 LogID = 2; required int32 service = 3;
//   required int32 method = 4; repeated Header headers = 5; optional string payload_encoding = 6;
//   optional string payload_type = 7; optional bytes payload = 8; optional string LogIDNew = 9; }

export const FRAME_CONTROL = 0;
export const FRAME_DATA = 1;
export type TFrame = {
  SeqID: number;
  LogID: number;
  service: number;
  method: number;
  headers: { key: string; value: string }[];
  payloadEncoding?: string;
  payloadType?: string;
  payload?: Uint8Array;
  LogIDNew?: string;
};

function varint(n: number | bigint): Buffer {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}
const tag = (field: number, wire: number) => varint((field << 3) | wire);
const bytesField = (field: number, b: Uint8Array) => Buffer.concat([tag(field, 2), varint(b.length), b]);
const stringField = (field: number, s: string) => bytesField(field, Buffer.from(s, "utf8"));

export function encodeFrame(f: TFrame): Buffer {
  const parts = [tag(1, 0), varint(f.SeqID), tag(2, 0), varint(f.LogID), tag(3, 0), varint(f.service), tag(4, 0), varint(f.method)];
  for (const h of f.headers) parts.push(bytesField(5, Buffer.concat([stringField(1, h.key), stringField(2, h.value)])));
  if (f.payloadEncoding !== undefined) parts.push(stringField(6, f.payloadEncoding));
  if (f.payloadType !== undefined) parts.push(stringField(7, f.payloadType));
  if (f.payload !== undefined) parts.push(bytesField(8, f.payload));
  if (f.LogIDNew !== undefined) parts.push(stringField(9, f.LogIDNew));
  return Buffer.concat(parts);
}

export function decodeFrame(buf: Uint8Array): TFrame {
  const fields = readFields(buf);
  const num = (n: number) => {
    const v = fields.find((f) => f.field === n);
    if (!v || typeof v.value !== "bigint") throw new Error(`frame: missing field ${n}`);
    return Number(v.value);
  };
  const str = (n: number) => {
    const v = fields.find((f) => f.field === n);
    return v && v.value instanceof Uint8Array ? Buffer.from(v.value).toString("utf8") : undefined;
  };
  const payload = fields.find((f) => f.field === 8)?.value;
  return {
    SeqID: num(1),
    LogID: num(2),
    service: num(3),
    method: num(4),
    headers: fields
      .filter((f) => f.field === 5 && f.value instanceof Uint8Array)
      .map((f) => {
        const h = readFields(f.value as Uint8Array);
        const s = (n: number) => Buffer.from((h.find((x) => x.field === n)?.value as Uint8Array) ?? []).toString("utf8");
        return { key: s(1), value: s(2) };
      }),
    payloadEncoding: str(6),
    payloadType: str(7),
    payload: payload instanceof Uint8Array ? payload : undefined,
    LogIDNew: str(9),
  };
}

function readFields(buf: Uint8Array): { field: number; value: bigint | Uint8Array }[] {
  const out: { field: number; value: bigint | Uint8Array }[] = [];
  let pos = 0;
  const readVarint = () => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buf.length) throw new Error("frame: truncated varint");
      const b = buf[pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const key = Number(readVarint());
    const field = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ field, value: readVarint() });
    else if (wire === 2) {
      const len = Number(readVarint());
      if (pos + len > buf.length) throw new Error("frame: truncated field");
      out.push({ field, value: buf.subarray(pos, pos + len) });
      pos += len;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`frame: wire type ${wire}`);
  }
  return out;
}
