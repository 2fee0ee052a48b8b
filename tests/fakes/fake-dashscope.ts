// A loopback stand-in for Aliyun DashScope: text-to-image (POST .../text2image/image-synthesis),
// image-to-video (.../video-generation/video-synthesis with img_url) and first-and-last-frame video
// (.../image2video/video-synthesis) are asynchronous tasks that need `X-DashScope-Async: enable`,
// read back with GET /api/v1/tasks/{task_id} (and cancelled, while PENDING, with POST
// /api/v1/tasks/{task_id}/cancel); CosyVoice (.../audio/tts/SpeechSynthesizer) and Qwen-TTS
// (.../multimodal-generation/generation) speak synchronously. Every call needs the one bearer key
// the fake knows; refusals and body checks are in fake-dashscope-checks.ts, in DashScope's shape
// {request_id, code, message}.
//
// A task answers PENDING `pendingPolls` times (default 0), then RUNNING `pollsUntilDone` times
// (default 1; drawing tasks count finished pictures in task_metrics as they go), then the outcome;
// with `hold` it stays RUNNING until finish(taskId). A task id the fake never made answers UNKNOWN,
// as DashScope answers for an expired task. Result links are served by the fake like OSS, signed
// with Expires/OSSAccessKeyId/Signature: real PNGs of the requested size scaled to at most 512 px a
// side, the bytes of tests/fixtures/media/sample.mp4 and sample.mp3 (a WAV of silence when WAV is
// asked); with `expiredLinks` the links are already past their Expires and answer 403 as OSS does.
// VideoRetalk and CosyVoice voice enrollment: fake-dashscope-digital.ts.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { makePng } from "../helpers/png";
import {
  checkAsyncHeader,
  checkBearer,
  checkImageBody,
  checkSpeechBody,
  checkVideoBody,
  SUBMIT_ERRORS,
  type TDashscopeRefusal,
  type TDashscopeSubmitError,
} from "./fake-dashscope-checks";
import { checkRetalkBody, createEnrollment, CUSTOMIZATION_PATH, isRetalkBody, RETALK_FAILURES } from "./fake-dashscope-digital";

export type TDashscopeBehaviour = {
  outcome?: "succeed" | "failed" | "content_output" | "no_face" | "too_long";
  pendingPolls?: number;
  pollsUntilDone?: number;
  submitError?: TDashscopeSubmitError;
  /** Sent as Retry-After with a rate-limit refusal (a gateway in front of DashScope may add one). */
  retryAfterSec?: number;
  expiredLinks?: boolean;
  hold?: boolean;
};
export type TDashscopeRequest = { method: string; path: string; query: string; headers: http.IncomingHttpHeaders; body: any };
export type TDashscopeTaskStatus = "PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELED";
export type TDashscopeTask = {
  id: string;
  kind: "image" | "video";
  path: string;
  body: any;
  status: TDashscopeTaskStatus;
  polls: number;
  behaviour: TDashscopeBehaviour;
  /** Result links (pictures, or the one video). */
  urls: string[];
  code?: string;
  message?: string;
  submittedAt: Date;
  endedAt?: Date;
};

const TASK_PATHS: Record<string, { kind: "image" | "video"; keyframes: boolean }> = {
  "/api/v1/services/aigc/text2image/image-synthesis": { kind: "image", keyframes: false },
  "/api/v1/services/aigc/video-generation/video-synthesis": { kind: "video", keyframes: false },
  "/api/v1/services/aigc/image2video/video-synthesis": { kind: "video", keyframes: true },
};
const COSYVOICE_PATH = "/api/v1/services/audio/tts/SpeechSynthesizer";
const QWEN_TTS_PATH = "/api/v1/services/aigc/multimodal-generation/generation";
const OUTCOME_FAILURES = {
  failed: { code: "InternalError.Algo", message: "An internal error occurred during algorithm execution, please try again later." },
  content_output: { code: "DataInspectionFailed", message: "Output data may contain inappropriate content." },
  ...RETALK_FAILURES,
};
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/media");
const OSS_KEY_ID = "LTAI5tFakeDashscopeOss";

/** DashScope's timestamps: "2025-01-08 16:03:59.840". */
const stamp = (d: Date) => d.toISOString().replace("T", " ").replace("Z", "");

/** The drawn picture's size: the requested W*H scaled so its longer side is at most 512 px. */
function pictureSize(size: unknown) {
  const [w, h] = (typeof size === "string" ? size : "1024*1024").split("*").map(Number);
  const scale = Math.min(1, 512 / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/** Half a second of 16-bit mono silence in a RIFF/WAVE container. */
function makeWav(sampleRate: number) {
  const data = Buffer.alloc(Math.floor(sampleRate / 2) * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export async function startFakeDashscope(opts: { apiKey?: string } = {}) {
  const apiKey = opts.apiKey ?? "sk-fake-dashscope-0001";
  const ossSecret = crypto.randomBytes(16).toString("hex");
  const requests: TDashscopeRequest[] = [];
  const tasks = new Map<string, TDashscopeTask>();
  const files = new Map<string, { bytes: Buffer; mime: string }>();
  let behaviour: TDashscopeBehaviour = {};
  let base = "";
  const enrollment = createEnrollment((b) => (b.submitError ? SUBMIT_ERRORS[b.submitError as TDashscopeSubmitError] : null));

  const send = (res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}) =>
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));
  const refuse = (res: http.ServerResponse, r: TDashscopeRefusal, headers?: Record<string, string>) =>
    send(res, r.status, { request_id: crypto.randomUUID(), code: r.code, message: r.message }, headers);
  const ossError = (res: http.ServerResponse, status: number, code: string, message: string) =>
    res
      .writeHead(status, { "content-type": "application/xml" })
      .end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

  const signOss = (name: string, expires: number) =>
    crypto.createHmac("sha1", ossSecret).update(`GET\n\n\n${expires}\n/dashscope-result/${name}`).digest("base64");

  /** Stores a result file and answers its signed link; an expired one is already past its Expires. */
  function publish(name: string, bytes: Buffer, mime: string, expired: boolean) {
    files.set(name, { bytes, mime });
    const expires = Math.floor(Date.now() / 1000) + (expired ? -60 : 86_400);
    const query = new URLSearchParams({ Expires: String(expires), OSSAccessKeyId: OSS_KEY_ID, Signature: signOss(name, expires) });
    return `${base}/dashscope-result/${name}?${query}`;
  }

  function serveFile(res: http.ServerResponse, name: string, query: URLSearchParams) {
    const expires = Number(query.get("Expires"));
    if (query.get("Signature") !== signOss(name, expires))
      return ossError(res, 403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.");
    if (!(expires > Date.now() / 1000)) return ossError(res, 403, "AccessDenied", "Request has expired.");
    const file = files.get(name);
    if (!file) return ossError(res, 404, "NoSuchKey", "The specified key does not exist.");
    res.writeHead(200, { "content-type": file.mime, "content-length": String(file.bytes.length) }).end(file.bytes);
  }

  function complete(t: TDashscopeTask) {
    if (t.status !== "PENDING" && t.status !== "RUNNING") return;
    const outcome = t.behaviour.outcome ?? "succeed";
    t.endedAt = new Date();
    if (outcome !== "succeed") {
      t.status = "FAILED";
      Object.assign(t, OUTCOME_FAILURES[outcome]);
      return;
    }
    t.status = "SUCCEEDED";
    const expired = !!t.behaviour.expiredLinks;
    if (t.kind === "video") {
      t.urls = [publish(`${t.id}/output.mp4`, fs.readFileSync(path.join(FIXTURES, "sample.mp4")), "video/mp4", expired)];
      return;
    }
    const { width, height } = pictureSize(t.body.parameters?.size);
    const count = t.body.parameters?.n ?? 1;
    t.urls = Array.from({ length: count }, (_, i) => publish(`${t.id}/${i}.png`, makePng(width, height, 60 + i * 40), "image/png", expired));
  }

  /** One poll moves a task on: PENDING, then RUNNING, then the outcome (or RUNNING until finish() when held). */
  function advance(t: TDashscopeTask) {
    if (t.status !== "PENDING" && t.status !== "RUNNING") return;
    t.polls++;
    const pending = t.behaviour.pendingPolls ?? 0;
    if (t.polls <= pending) return;
    if (t.behaviour.hold || t.polls <= pending + (t.behaviour.pollsUntilDone ?? 1)) {
      t.status = "RUNNING";
      return;
    }
    complete(t);
  }

  function describe(t: TDashscopeTask) {
    const output: Record<string, unknown> = { task_id: t.id, task_status: t.status, submit_time: stamp(t.submittedAt) };
    if (t.status !== "PENDING") output.scheduled_time = stamp(new Date(t.submittedAt.getTime() + 20));
    if (t.endedAt) output.end_time = stamp(t.endedAt);
    const prompt = t.body.input?.prompt ?? "";
    let usage: Record<string, unknown> | undefined;
    if (t.kind === "image") {
      const total = t.body.parameters?.n ?? 1;
      const runningPolls = Math.max(0, t.polls - (t.behaviour.pendingPolls ?? 0));
      const done =
        t.status === "SUCCEEDED"
          ? total
          : t.status === "RUNNING" && !t.behaviour.hold
            ? Math.floor((total * runningPolls) / ((t.behaviour.pollsUntilDone ?? 1) + 1))
            : 0;
      output.task_metrics = { TOTAL: total, SUCCEEDED: done, FAILED: t.status === "FAILED" ? total : 0 };
      if (t.status === "SUCCEEDED") {
        output.results = t.urls.map((url) => ({ orig_prompt: prompt, actual_prompt: prompt, url }));
        usage = { image_count: total };
      }
    } else if (t.status === "SUCCEEDED") {
      Object.assign(output, { video_url: t.urls[0], orig_prompt: prompt, actual_prompt: prompt });
      usage = { video_duration: t.body.parameters?.duration ?? 5, video_ratio: "832*480", video_count: 1 };
    }
    if (t.status === "FAILED") Object.assign(output, { code: t.code, message: t.message });
    return usage ? { request_id: crypto.randomUUID(), output, usage } : { request_id: crypto.randomUUID(), output };
  }

  function submitError(res: http.ServerResponse) {
    if (!behaviour.submitError) return false;
    const headers: Record<string, string> =
      behaviour.submitError === "rate_limited" && behaviour.retryAfterSec !== undefined ? { "retry-after": String(behaviour.retryAfterSec) } : {};
    refuse(res, SUBMIT_ERRORS[behaviour.submitError], headers);
    return true;
  }

  function submitTask(req: http.IncomingMessage, res: http.ServerResponse, route: string, body: any) {
    const { kind, keyframes } = TASK_PATHS[route];
    const asyncRefused = checkAsyncHeader(req.headers["x-dashscope-async"]);
    if (asyncRefused) return refuse(res, asyncRefused);
    const bodyRefused = kind === "image" ? checkImageBody(body) : isRetalkBody(body) ? checkRetalkBody(body) : checkVideoBody(body, keyframes);
    if (bodyRefused) return refuse(res, bodyRefused);
    if (submitError(res)) return;
    const id = crypto.randomUUID();
    tasks.set(id, { id, kind, path: route, body, status: "PENDING", polls: 0, behaviour: { ...behaviour }, urls: [], submittedAt: new Date() });
    send(res, 200, { request_id: crypto.randomUUID(), output: { task_id: id, task_status: "PENDING" } });
  }

  function speak(res: http.ServerResponse, body: any, qwenTts: boolean) {
    const refused = checkSpeechBody(body, qwenTts);
    if (refused) return refuse(res, refused);
    if (submitError(res)) return;
    const id = `audio_${crypto.randomUUID()}`;
    const wav = qwenTts || body.input.format === "wav";
    const bytes = wav ? makeWav(body.input.sample_rate ?? 24000) : fs.readFileSync(path.join(FIXTURES, "sample.mp3"));
    const url = publish(`${id}.${wav ? "wav" : "mp3"}`, bytes, wav ? "audio/wav" : "audio/mpeg", !!behaviour.expiredLinks);
    const characters = [...String(body.input.text)].reduce((n, c) => n + (/[\u3400-\u9fff]/.test(c) ? 2 : 1), 0);
    const audio = { url, id, expires_at: Math.floor(Date.now() / 1000) + 86_400, data: "" };
    send(res, 200, { request_id: crypto.randomUUID(), output: { finish_reason: "stop", audio }, usage: { characters } });
  }

  function cancel(res: http.ServerResponse, t: TDashscopeTask | undefined) {
    if (!t || t.status !== "PENDING")
      return refuse(res, { status: 400, code: "UnsupportedOperation", message: "Failed to cancel the task, please confirm if the task is in PENDING status." });
    t.status = "CANCELED";
    t.endedAt = new Date();
    send(res, 200, { request_id: crypto.randomUUID() });
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {}
    requests.push({ method: req.method ?? "", path: url.pathname, query: url.search, headers: req.headers, body });
    if (req.method === "GET" && url.pathname.startsWith("/dashscope-result/"))
      return serveFile(res, url.pathname.slice("/dashscope-result/".length), url.searchParams);
    const authRefused = checkBearer(req.headers.authorization, apiKey);
    if (authRefused) return refuse(res, authRefused);
    const taskMatch = /^\/api\/v1\/tasks\/([^/]+)(\/cancel)?$/.exec(url.pathname);
    if (req.method === "POST" && TASK_PATHS[url.pathname]) return submitTask(req, res, url.pathname, body);
    if (req.method === "POST" && url.pathname === COSYVOICE_PATH) return speak(res, body, false);
    if (req.method === "POST" && url.pathname === QWEN_TTS_PATH) return speak(res, body, true);
    if (req.method === "POST" && url.pathname === CUSTOMIZATION_PATH) {
      const answer = enrollment.handle(body, behaviour);
      return send(res, answer.status, answer.body);
    }
    if (taskMatch && req.method === "POST" && taskMatch[2]) return cancel(res, tasks.get(decodeURIComponent(taskMatch[1])));
    if (taskMatch && req.method === "GET" && !taskMatch[2]) {
      const task = tasks.get(decodeURIComponent(taskMatch[1]));
      if (!task) return send(res, 200, { request_id: crypto.randomUUID(), output: { task_id: taskMatch[1], task_status: "UNKNOWN" } });
      advance(task);
      return send(res, 200, describe(task));
    }
    refuse(res, { status: 404, code: "NotFound", message: `The requested path ${url.pathname} was not found.` });
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((err) => {
      if (!res.headersSent) refuse(res, { status: 500, code: "InternalError", message: String(err) });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    apiKey,
    /** How the tasks (and speech) submitted from now on go; `behave({})` returns to plain success. */
    behave(b: TDashscopeBehaviour) {
      behaviour = { ...b };
    },
    get requests() {
      return requests;
    },
    get tasks() {
      return tasks;
    },
    /** Voices made through CosyVoice's voice enrollment. */
    voices: enrollment.voices,
    /** Ends a held task with its outcome; its next poll reports it. */
    finish(taskId: string) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`no task ${taskId}`);
      complete(task);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
