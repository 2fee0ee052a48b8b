// A loopback stand-in for an OpenAI-compatible upstream (POST /v1/chat/completions): JSON answers,
// server-sent-event streams shaped like OpenAI's (role delta, optional reasoning_content and
// tool_calls deltas, content deltas, finish_reason, [DONE]), and failures on demand per key.
// It counts requests per key, keeps every body it received and what it streamed, and notices
// when a client hangs up before the answer ended.
//
// Content-driven modes (any key), so end-to-end chats can reach tools without per-key setup:
//  - the last user message contains `[[tool:NAME {json args}]]` and the request offers a tool
//    NAME: the stream is a call of that tool with those arguments;
//  - the last message is a `tool` result: the content mentions the result;
//  - the last user message contains `[[say:TEXT]]`: the content is TEXT (split into the chunks).
// A stream that asks for `stream_options.include_usage` ends with OpenAI's usage chunk.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type TFailure = "500" | "429" | "401" | "403_banned" | "reset" | "hang";

export type TStreamShape = {
  /** Content deltas (default 3). */
  chunks?: number;
  /** reasoning_content deltas before the content (default 0). */
  reasoningChunks?: number;
  /** Stream a tool call (name and arguments in pieces) instead of content. */
  toolCall?: boolean;
  delayMs?: number;
  /** An extra pause after the last reasoning delta, as a model that thinks and then answers. */
  thinkMs?: number;
  /** Drop the connection after this many chunks: a stream that dies midway. */
  dieAfter?: number;
  /** Stream this text as the content (split over `chunks` deltas) instead of "word0 word1 ...". */
  text?: string;
  /** Call this tool (`toolCall` uses get_weather with a fixed city). */
  tool?: { name: string; arguments: string };
  /** Never send the usage chunk, even when asked: the caller must estimate. */
  noUsage?: boolean;
};

export type TKeyBehaviour = {
  fail?: TFailure;
  /** Fail only the first N requests of this key, then answer normally. */
  failTimes?: number;
  stream?: TStreamShape;
  /** The answer's content computed from the request's body (a model answering from what it was given). */
  reply?: (body: any) => string;
};

export type TReceived = { key: string; body: any; sent: any[]; aborted: boolean };

export type TAudioReceived = { key: string; kind: "transcription" | "speech"; model: string; file: Buffer | null; filename: string | null; body: any };
/** What the fake's /audio/speech answers: an ID3 header and a few bytes. */
export const FAKE_MP3 = Buffer.from([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64, 1, 2, 3, 4]);

/**
 * `record: false` keeps no bodies and no streamed chunks (`received` stays empty; counts and aborts
 * are kept): a benchmark's fake serves thousands of 200-chunk streams, and holding every chunk
 * would only grow its heap through the run.
 */
export async function startFakeOpenai(opts: { record?: boolean } = {}) {
  const record = opts.record ?? true;
  const behaviours = new Map<string, TKeyBehaviour>();
  const counts = new Map<string, number>();
  const received: TReceived[] = [];
  const audio: TAudioReceived[] = [];
  let transcript = "transcribed text";
  let speechAudio: Buffer = FAKE_MP3;
  let speechFailure: 500 | 429 | null = null;
  const sockets = new Set<Socket>();
  let aborts = 0;
  const abortWaiters: Array<() => void> = [];

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    // OpenAI's audio calls: a transcription (multipart) answers the text it was told; speech some
    // MP3-like bytes. Both are recorded in `audio`.
    if (req.method === "POST" && req.url?.endsWith("/audio/transcriptions")) {
      const raw = Buffer.concat(chunks);
      const form = await new Request("http://fake/", { method: "POST", headers: { "content-type": String(req.headers["content-type"] ?? "") }, body: raw })
        .formData()
        .catch(() => null);
      const file = form?.get("file");
      const bytes = file && typeof file !== "string" ? Buffer.from(await file.arrayBuffer()) : null;
      audio.push({
        key,
        kind: "transcription",
        model: String(form?.get("model") ?? ""),
        file: bytes,
        filename: file && typeof file !== "string" ? file.name : null,
        body: null,
      });
      if (!bytes) return sendJson(res, 400, { error: { message: "no file" } });
      return sendJson(res, 200, { text: transcript });
    }
    if (req.method === "POST" && req.url?.endsWith("/audio/speech")) {
      let speechBody: any = null;
      try {
        speechBody = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {}
      audio.push({ key, kind: "speech", model: String(speechBody?.model ?? ""), file: null, filename: null, body: speechBody });
      // OpenAI's own refusals: a server error, or the rate limit with its Retry-After.
      if (speechFailure === 500)
        return sendJson(res, 500, { error: { message: "The server had an error while processing your request.", type: "server_error", code: null } });
      if (speechFailure === 429) {
        res.setHeader("retry-after", "1");
        return sendJson(res, 429, { error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } });
      }
      res.writeHead(200, { "content-type": "audio/mpeg" }).end(speechAudio);
      return;
    }
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad json", type: "invalid_request_error" } }));
      return;
    }
    const got: TReceived = { key, body, sent: [], aborted: false };
    if (record) received.push(got);
    res.on("close", () => {
      if (res.writableFinished) return;
      got.aborted = true;
      aborts++;
      abortWaiters.splice(0).forEach((w) => w());
    });
    // OpenAI's embeddings: a deterministic bag of hashed words and character pairs, so texts that
    // share words end up close, as with a real model.
    if (req.method === "POST" && req.url?.endsWith("/embeddings")) {
      const inputs: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? "")];
      return sendJson(res, 200, {
        object: "list",
        model: body?.model,
        data: inputs.map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(text) })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return sendJson(res, 404, { error: { message: "not found" } });

    const behaviour = behaviours.get(key) ?? {};
    const failing = behaviour.fail && (behaviour.failTimes === undefined || n <= behaviour.failTimes);
    if (failing) return fail(req, res, behaviour.fail!);

    const id = `chatcmpl-${crypto.randomBytes(6).toString("hex")}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        object: "chat.completion",
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: behaviour.reply?.(body) ?? `Hello from ${key}` }, finish_reason: "stop" }],
        usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
      });
    }
    const replied = behaviour.reply ? { text: behaviour.reply(body) } : {};
    const events = buildStreamChunks({ id, created, model: body.model, ...behaviour.stream, ...replied, ...contentDrivenShape(body) });
    if (body.stream_options?.include_usage && !behaviour.stream?.noUsage) events.push(usageChunk(id, created, body, events) as any);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    for (let i = 0; i < events.length; i++) {
      if (behaviour.stream?.dieAfter !== undefined && i >= behaviour.stream.dieAfter) {
        res.socket?.destroy();
        return;
      }
      if (res.destroyed) return;
      // Waiting for the flush makes "dies after N chunks" mean N chunks really left the socket.
      await new Promise<void>((r) => res.write(`data: ${JSON.stringify(events[i])}\n\n`, () => r()));
      if (record) got.sent.push(events[i]);
      if (behaviour.stream?.delayMs) await sleep(behaviour.stream.delayMs);
      if (behaviour.stream?.thinkMs && events[i].choices?.[0]?.delta?.reasoning_content && !events[i + 1]?.choices?.[0]?.delta?.reasoning_content)
        await sleep(behaviour.stream.thinkMs);
    }
    if (res.destroyed) return;
    res.end("data: [DONE]\n\n");
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  return {
    base,
    /** Sets how one key answers; keys without a behaviour answer normally. */
    setBehaviour(key: string, behaviour: TKeyBehaviour) {
      behaviours.set(key, behaviour);
    },
    requestsFor: (key: string) => counts.get(key) ?? 0,
    /** The transcriptions and speech requests received, in order. */
    get audio() {
      return audio;
    },
    /** What /audio/transcriptions answers from now on. */
    setTranscript(text: string) {
      transcript = text;
    },
    /** What /audio/speech answers from now on (FAKE_MP3 is not playable; a browser test needs real audio). */
    setSpeechAudio(bytes: Buffer) {
      speechAudio = bytes;
    },
    /** /audio/speech refuses from now on as OpenAI does (500 server_error, 429 rate limit); null answers again. */
    failSpeech(status: 500 | 429 | null) {
      speechFailure = status;
    },
    receivedFor: (key: string) => received.filter((r) => r.key === key),
    get received() {
      return received;
    },
    get aborts() {
      return aborts;
    },
    /** Resolves once the fake has seen this many client hang-ups in total. */
    async waitForAborts(total: number, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (aborts < total) {
        if (Date.now() > deadline) throw new Error(`expected ${total} client aborts, saw ${aborts}`);
        await Promise.race([new Promise<void>((r) => abortWaiters.push(r)), sleep(50)]);
      }
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The chunks of one stream, in OpenAI's order. */
export function buildStreamChunks(o: TStreamShape & { id: string; created: number; model: string }) {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: o.id,
    object: "chat.completion.chunk",
    created: o.created,
    model: o.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out = [chunk({ role: "assistant", content: "" })];
  for (let i = 0; i < (o.reasoningChunks ?? 0); i++) out.push(chunk({ reasoning_content: `think ${i} ` }));
  if (o.toolCall || o.tool) {
    const tool = o.tool ?? { name: "get_weather", arguments: '{"city":"Shanghai"}' };
    out.push(chunk({ tool_calls: [{ index: 0, id: `call_${o.id.slice(-6)}`, type: "function", function: { name: tool.name, arguments: "" } }] }));
    for (const piece of splitInto(tool.arguments, 3)) out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    out.push(chunk({}, "tool_calls"));
    return out;
  }
  const count = o.chunks ?? 3;
  const pieces = o.text !== undefined ? splitInto(o.text, count) : Array.from({ length: count }, (_, i) => `word${i} `);
  for (const piece of pieces) out.push(chunk({ content: piece }));
  out.push(chunk({}, "stop"));
  return out;
}

/** `count` consecutive pieces of `text` (by code point), none empty unless the text is shorter. */
function splitInto(text: string, count: number) {
  const chars = [...text];
  const n = Math.max(1, Math.min(count, chars.length));
  const size = Math.ceil(chars.length / n);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out.length ? out : [""];
}

/** The content-driven modes described at the top of this file. */
function contentDrivenShape(body: any): Partial<TStreamShape> {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  if (!last) return {};
  if (last.role === "tool") {
    const call = messages.flatMap((m) => m.tool_calls ?? []).find((c: any) => c.id === last.tool_call_id);
    const result = String(typeof last.content === "string" ? last.content : JSON.stringify(last.content)).slice(0, 200);
    return { text: `Tool ${call?.function?.name ?? "?"} returned: ${result}`, tool: undefined, toolCall: false };
  }
  if (last.role !== "user" || typeof last.content !== "string") return {};
  const toolMatch = /\[\[tool:([a-z_]+)\s*(\{.*?\})?\]\]/s.exec(last.content);
  const offered = (body.tools ?? []).map((t: any) => t?.function?.name);
  if (toolMatch && offered.includes(toolMatch[1])) return { tool: { name: toolMatch[1], arguments: toolMatch[2] ?? "{}" } };
  const say = /\[\[say:(.*?)\]\]/s.exec(last.content);
  if (say) return { text: say[1] };
  return {};
}

function usageChunk(id: string, created: number, body: any, events: any[]) {
  const completion = events.filter((e) => {
    const d = e.choices?.[0]?.delta ?? {};
    return d.content || d.reasoning_content || d.tool_calls;
  }).length;
  const prompt = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  return {
    id,
    object: "chat.completion.chunk",
    created,
    model: body.model,
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

function fail(req: http.IncomingMessage, res: http.ServerResponse, failure: TFailure) {
  switch (failure) {
    case "500":
      return sendJson(res, 500, { error: { message: "The server had an error while processing your request", type: "server_error" } });
    case "429":
      return sendJson(res, 429, { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } });
    case "401":
      return sendJson(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
    case "403_banned":
      return sendJson(res, 403, { error: { message: "Your account has been deactivated", type: "access_terminated", code: "account_deactivated" } });
    case "reset":
      req.socket.destroy();
      return;
    case "hang":
      // Never answers; close() or the client's timeout ends it.
      return;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

export const FAKE_EMBEDDING_DIMS = 64;

function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMS).fill(0);
  const lower = text.toLowerCase();
  const grams = [...(lower.match(/[a-z0-9]+/g) ?? [])];
  const cjk = [...lower].filter((c) => /[\u3400-\u9fff]/.test(c));
  for (let i = 0; i + 1 < cjk.length; i++) grams.push(cjk[i] + cjk[i + 1]);
  for (const g of grams) {
    let h = 2166136261;
    for (let i = 0; i < g.length; i++) h = Math.imul(h ^ g.charCodeAt(i), 16777619);
    v[Math.abs(h) % FAKE_EMBEDDING_DIMS] += 1;
  }
  const norm = Math.sqrt(v.reduce((n, x) => n + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}
