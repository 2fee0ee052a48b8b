// A loopback stand-in for Kling's API: POST /v1/images/generations and /v1/videos/image2video
// create tasks, GET <path>/{task_id} (or <path>?external_task_id=...) reads them back, every call
// needs a bearer JWT signed with the one key pair the fake knows (refused with HTTP 401 and Kling's
// 1000-1004 codes otherwise), bodies are checked as Kling checks them (fake-kling-checks.ts), and
// answers carry Kling's envelope {code, message, request_id, data}.
//
// A task's polls answer "submitted" first, then `pollsUntilDone` times "processing", then the
// outcome; with `hold` it stays "processing" until finish(taskId); with `finishAfterMs` it finishes
// by itself, for runners that wait on the callback. A finished task with a callback_url gets the
// task's fields POSTed there. Result links are served by the fake like a CDN with a signed-looking
// query string: real PNGs of the requested aspect ratio (at most 512 px a side) and the bytes of
// tests/fixtures/media/sample.mp4; with `expiredLinks` they answer 403 like an expired link.
// Lip-sync (POST /v1/videos/lip-sync, audio2video with both files by URL) runs like a video task;
// it can refuse or fail for a clip without a person ("no_face") or too long ("too_long").
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { makePng } from "../helpers/png";
import { checkImageBody, checkKlingToken, checkLipsyncBody, checkVideoBody, type TKlingRefusal } from "./fake-kling-checks";

export type TKlingSubmitError = "balance" | "rate_limited" | "content_input" | "auth" | "bad_request" | "no_face" | "too_long";
export type TKlingBehaviour = {
  outcome?: "succeed" | "failed" | "content_output" | "no_face" | "too_long";
  pollsUntilDone?: number;
  submitError?: TKlingSubmitError;
  /** Sent as Retry-After with a rate-limit refusal (a gateway in front of Kling may add one). */
  retryAfterSec?: number;
  expiredLinks?: boolean;
  hold?: boolean;
  finishAfterMs?: number;
};
export type TKlingRequest = { method: string; path: string; query: string; headers: http.IncomingHttpHeaders; body: any };
export type TKlingTask = {
  id: string;
  kind: TKlingKind;
  body: any;
  externalTaskId?: string;
  callbackUrl?: string;
  status: "submitted" | "processing" | "succeed" | "failed";
  statusMsg: string;
  polls: number;
  behaviour: TKlingBehaviour;
  results: Array<{ index: number; id: string; url: string }>;
  /** What the callback_url answered (HTTP status), or the error when it could not be reached. */
  callbacks: Array<number | string>;
  createdAt: number;
  updatedAt: number;
};

const SUBMIT_ERRORS: Record<TKlingSubmitError, TKlingRefusal> = {
  balance: { status: 429, code: 1102, message: "Account resource pack is exhausted" },
  rate_limited: { status: 429, code: 1302, message: "The API request is too fast, please slow down the request rate" },
  content_input: { status: 400, code: 1301, message: "Failure to pass the risk control system" },
  auth: { status: 403, code: 1103, message: "Unauthorized access to requested resource" },
  bad_request: { status: 400, code: 1201, message: "Invalid request parameters" },
  no_face: { status: 400, code: 1201, message: "there is no human in the video" },
  too_long: { status: 400, code: 1201, message: "video duration must be between 2s and 10s" },
};
const FAILURE_MESSAGES = {
  failed: "Task failed due to an internal error, please try again later",
  content_output: "Failure to pass the risk control system: the generated content did not pass review",
  no_face: "there is no human in the video",
  too_long: "the audio duration exceeds the length of the video",
};
const PATHS = { "/v1/images/generations": "image", "/v1/videos/image2video": "video", "/v1/videos/lip-sync": "lipsync" } as const;
type TKlingKind = (typeof PATHS)[keyof typeof PATHS];
const SAMPLE_MP4 = path.resolve(import.meta.dirname, "../fixtures/media/sample.mp4");

/** The drawn size for an aspect ratio, scaled so its longer side is 512 px. */
function sizeFor(aspectRatio: string) {
  const [w, h] = (aspectRatio || "16:9").split(":").map(Number);
  return w >= h ? { width: 512, height: Math.round((512 * h) / w) } : { width: Math.round((512 * w) / h), height: 512 };
}

export async function startFakeKling(opts: { accessKey?: string; secretKey?: string } = {}) {
  const accessKey = opts.accessKey ?? "ak-fake-kling-0001";
  const secretKey = opts.secretKey ?? "sk-fake-kling-secret-0001";
  const requests: TKlingRequest[] = [];
  const tasks = new Map<string, TKlingTask>();
  const timers = new Set<NodeJS.Timeout>();
  let behaviour: TKlingBehaviour = {};
  let base = "";

  const send = (res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}) =>
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));
  const answer = (res: http.ServerResponse, data: unknown) => send(res, 200, { code: 0, message: "SUCCEED", request_id: crypto.randomUUID(), data });
  const refuse = (res: http.ServerResponse, r: TKlingRefusal, headers?: Record<string, string>) =>
    send(res, r.status, { code: r.code, message: r.message, request_id: crypto.randomUUID() }, headers);

  function taskData(t: TKlingTask) {
    const done = t.status === "succeed";
    const result =
      t.kind === "image"
        ? { images: t.results.map(({ index, url }) => ({ index, url })) }
        : { videos: t.results.map(({ id, url }) => ({ id, url, duration: t.body.duration ?? "5" })) };
    return {
      task_id: t.id,
      task_status: t.status,
      task_status_msg: t.statusMsg,
      task_info: t.externalTaskId ? { external_task_id: t.externalTaskId } : {},
      task_result: done ? result : undefined,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    };
  }

  function signedLink(taskId: string, file: string) {
    const expires = Math.floor(Date.now() / 1000) + 86_400;
    const sign = crypto.createHmac("sha256", secretKey).update(`${taskId}/${file}:${expires}`).digest("hex").slice(0, 32);
    return `${base}/kcdn/${taskId}/${file}?x-kcdn-expires=${expires}&x-kcdn-sign=${sign}`;
  }

  function complete(t: TKlingTask) {
    if (t.status === "succeed" || t.status === "failed") return;
    const outcome = t.behaviour.outcome ?? "succeed";
    t.updatedAt = Date.now();
    if (outcome === "succeed") {
      t.status = "succeed";
      t.statusMsg = "";
      const count = t.kind === "image" ? (t.body.n ?? 1) : 1;
      t.results = Array.from({ length: count }, (_, index) => ({
        index,
        id: crypto.randomUUID(),
        url: signedLink(t.id, t.kind === "image" ? `${index}.png` : "output.mp4"),
      }));
    } else {
      t.status = "failed";
      t.statusMsg = FAILURE_MESSAGES[outcome];
    }
    if (t.callbackUrl) void postCallback(t);
  }

  async function postCallback(t: TKlingTask) {
    try {
      const res = await fetch(t.callbackUrl!, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(taskData(t)) });
      t.callbacks.push(res.status);
    } catch (err) {
      t.callbacks.push((err as Error).message);
    }
  }

  function create(kind: TKlingKind, body: any, res: http.ServerResponse) {
    const refusal = kind === "image" ? checkImageBody(body) : kind === "lipsync" ? checkLipsyncBody(body) : checkVideoBody(body);
    if (refusal) return refuse(res, refusal);
    if (behaviour.submitError) {
      const retry =
        behaviour.submitError === "rate_limited" && behaviour.retryAfterSec !== undefined ? { "retry-after": String(behaviour.retryAfterSec) } : undefined;
      return refuse(res, SUBMIT_ERRORS[behaviour.submitError], retry);
    }
    if (body.external_task_id && [...tasks.values()].some((t) => t.externalTaskId === body.external_task_id)) {
      return refuse(res, { status: 400, code: 1201, message: "external_task_id already exists" });
    }
    const now = Date.now();
    const t: TKlingTask = {
      id: String(700_000_000_000_000_000n + BigInt(tasks.size) * 7919n + BigInt(crypto.randomInt(1000))),
      kind,
      body,
      externalTaskId: body.external_task_id,
      callbackUrl: body.callback_url,
      status: "submitted",
      statusMsg: "",
      polls: 0,
      behaviour: { ...behaviour },
      results: [],
      callbacks: [],
      createdAt: now,
      updatedAt: now,
    };
    tasks.set(t.id, t);
    if (t.behaviour.finishAfterMs !== undefined && !t.behaviour.hold) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        complete(t);
      }, t.behaviour.finishAfterMs);
      timers.add(timer);
    }
    return answer(res, {
      task_id: t.id,
      task_status: t.status,
      task_info: t.externalTaskId ? { external_task_id: t.externalTaskId } : {},
      created_at: now,
      updated_at: now,
    });
  }

  /** submitted on the first poll, processing for pollsUntilDone polls, then the outcome (unless held). */
  function advance(t: TKlingTask) {
    t.polls++;
    if (t.status === "succeed" || t.status === "failed" || t.polls === 1) return;
    if (t.behaviour.hold || t.polls <= 1 + (t.behaviour.pollsUntilDone ?? 1)) {
      if (t.status !== "processing") t.updatedAt = Date.now();
      t.status = "processing";
      return;
    }
    complete(t);
  }

  function read(kind: TKlingKind, taskId: string | null, query: URLSearchParams, res: http.ServerResponse) {
    const external = query.get("external_task_id");
    if (!taskId && !external) return answer(res, [...tasks.values()].filter((t) => t.kind === kind).map(taskData));
    const t = taskId ? tasks.get(taskId) : [...tasks.values()].find((x) => x.externalTaskId === external);
    if (!t || t.kind !== kind) return refuse(res, { status: 404, code: 1203, message: "task not found" });
    if (taskId) advance(t);
    return answer(res, taskData(t));
  }

  function serveFile(pathname: string, query: URLSearchParams, res: http.ServerResponse) {
    const [, , taskId = "", file = ""] = pathname.split("/");
    const t = tasks.get(taskId);
    const denied = (message: string) =>
      res
        .writeHead(403, { "content-type": "application/xml" })
        .end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${message}</Message></Error>`);
    if (!t || !t.results.some((r) => r.url.includes(`/${taskId}/${file}?`))) return res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
    if (!query.get("x-kcdn-sign")) return denied("Request is not signed");
    if (t.behaviour.expiredLinks) return denied("Request has expired");
    if (file === "output.mp4") return res.writeHead(200, { "content-type": "video/mp4" }).end(fs.readFileSync(SAMPLE_MP4));
    const { width, height } = sizeFor(t.body.aspect_ratio);
    return res.writeHead(200, { "content-type": "image/png" }).end(makePng(width, height, (60 + 40 * Number.parseInt(file, 10)) % 256));
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", "http://fake");
    let body: any = null;
    const raw = Buffer.concat(chunks).toString("utf8");
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {}
    requests.push({ method: req.method ?? "", path: url.pathname, query: url.search, headers: req.headers, body });
    if (req.method === "GET" && url.pathname.startsWith("/kcdn/")) return serveFile(url.pathname, url.searchParams, res);

    const unauthorized = checkKlingToken(req.headers.authorization, accessKey, secretKey);
    if (unauthorized) return refuse(res, unauthorized);
    const [, v1, area, action, taskId = null] = url.pathname.split("/");
    const kind = PATHS[`/${v1}/${area}/${action}` as keyof typeof PATHS];
    if (!kind) return refuse(res, { status: 404, code: 1202, message: "invalid request method or path" });
    if (req.method === "POST" && !taskId) {
      if (raw && body === null) return refuse(res, { status: 400, code: 1200, message: "request body is not valid JSON" });
      return create(kind, body, res);
    }
    if (req.method === "GET") return read(kind, taskId && decodeURIComponent(taskId), url.searchParams, res);
    return refuse(res, { status: 404, code: 1202, message: "invalid request method or path" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    accessKey,
    secretKey,
    /** The channel key as an admin enters it. */
    secret: `${accessKey}:${secretKey}`,
    requests,
    tasks,
    /** How tasks submitted from now on go (replaces the previous behaviour). */
    behave(b: TKlingBehaviour) {
      behaviour = { ...b };
    },
    /** Ends a held (or still running) task with its outcome, posting the callback if it has one. */
    finish(taskId: string) {
      const t = tasks.get(taskId);
      if (!t) throw new Error(`fake Kling has no task ${taskId}`);
      complete(t);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type TFakeKling = Awaited<ReturnType<typeof startFakeKling>>;
