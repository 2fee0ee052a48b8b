// A loopback stand-in for HeyGen's v2 API: POST /v2/video/generate (an avatar it holds, voiced by
// an audio URL, on a colour background) read back with GET /v1/video_status.get?video_id=, POST
// /v2/video_avatar (a video avatar trained from footage and a consent clip) read back with GET
// /v2/video_avatar/{id}, and GET /v2/user/remaining_quota. Every call needs the one X-Api-Key the
// fake knows; answers are {error, data} ({code: 100, data, message} for the video status), refusals
// an HTTP status with error {code, message}.
//
// A video answers "pending" on its first status read, "processing" `pollsUntilDone` times, then the
// outcome; an avatar answers "in_progress" the same way. Outcomes: succeed, failed (late), no_face,
// too_long. `submitError` refuses the create call instead (no_face, too_long, rate_limited, balance).
// Finished videos link to /hgcdn/<id>.mp4 (the bytes of tests/fixtures/media/sample.mp4); with
// `expiredLinks` the link answers 404, as HeyGen's expired links do.
import crypto from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { sendJson, startLoopback, type TFakeRequest } from "./media-fake-kit";

export type THeygenOutcome = "succeed" | "failed" | "no_face" | "too_long";
export type THeygenBehaviour = {
  outcome?: THeygenOutcome;
  pollsUntilDone?: number;
  submitError?: "no_face" | "too_long" | "rate_limited" | "balance";
  expiredLinks?: boolean;
};
type TJob = { id: string; kind: "video" | "avatar"; body: any; reads: number; behaviour: THeygenBehaviour; status: string };

const SAMPLE_MP4 = path.resolve(import.meta.dirname, "../fixtures/media/sample.mp4");
const FAILURES: Record<Exclude<THeygenOutcome, "succeed">, { code: string; message: string }> = {
  failed: { code: "internal_error", message: "Video render failed, we are looking into this issue" },
  no_face: { code: "face_detect_failed", message: "No face detected in the footage" },
  too_long: { code: "audio_too_long", message: "The audio duration exceeds the limit" },
};
const REFUSALS = {
  no_face: { status: 400, code: "face_detect_failed", message: "No face detected in the footage" },
  too_long: { status: 400, code: "audio_too_long", message: "The audio duration exceeds the limit" },
  rate_limited: { status: 429, code: "rate_limit_exceeded", message: "Too many requests" },
  balance: { status: 400, code: "insufficient_credit", message: "Insufficient credit" },
};
const isUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v);

export async function startFakeHeygen(opts: { apiKey?: string } = {}) {
  const apiKey = opts.apiKey ?? "hg-fake-key-0001";
  const jobs = new Map<string, TJob>();
  const avatars = new Set<string>(["preset_avatar_0001"]);
  let behaviour: THeygenBehaviour = {};
  const refuse = (res: http.ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>) =>
    sendJson(res, status, { data: null, error: { code, message } }, headers);

  function create(kind: "video" | "avatar", body: any, res: http.ServerResponse) {
    const refusal = behaviour.submitError ? REFUSALS[behaviour.submitError] : null;
    if (refusal) return refuse(res, refusal.status, refusal.code, refusal.message, refusal.status === 429 ? { "retry-after": "1" } : undefined);
    const id = crypto.randomBytes(16).toString("hex");
    jobs.set(id, { id, kind, body, reads: 0, behaviour: { ...behaviour }, status: kind === "video" ? "pending" : "in_progress" });
    return sendJson(res, 200, { error: null, data: kind === "video" ? { video_id: id } : { avatar_id: id, avatar_group_id: `group_${id}` } });
  }

  function checkVideo(body: any) {
    const input = Array.isArray(body?.video_inputs) ? body.video_inputs[0] : null;
    if (!input) return "video_inputs is required";
    if (input.character?.type !== "avatar" || !avatars.has(input.character.avatar_id))
      return `Avatar ${String(input.character?.avatar_id)} not found or no longer available.`;
    if (input.voice?.type !== "audio" || !isUrl(input.voice.audio_url)) return "voice.audio_url must be a public URL when voice.type is audio";
    if (input.background && !(input.background.type === "color" && /^#[0-9a-fA-F]{6}$/.test(input.background.value))) return "background is invalid";
    return null;
  }

  function checkAvatar(body: any) {
    if (!isUrl(body?.training_footage_url)) return "training_footage_url is required";
    if (!isUrl(body?.video_consent_url)) return "video_consent_url is required";
    if (typeof body?.avatar_name !== "string" || !body.avatar_name) return "avatar_name is required";
    return null;
  }

  /** One read moves a job on: pending/in_progress first, then processing, then the outcome. */
  function advance(job: TJob) {
    job.reads++;
    if (!["pending", "processing", "in_progress"].includes(job.status) || job.reads === 1) return;
    if (job.reads <= 1 + (job.behaviour.pollsUntilDone ?? 1)) {
      if (job.kind === "video") job.status = "processing";
      return;
    }
    const outcome = job.behaviour.outcome ?? "succeed";
    job.status = outcome === "succeed" ? "completed" : "failed";
    if (job.status === "completed" && job.kind === "avatar") avatars.add(job.id);
  }

  function videoStatus(job: TJob) {
    const error = job.status === "failed" ? { ...FAILURES[(job.behaviour.outcome ?? "failed") as Exclude<THeygenOutcome, "succeed">], detail: "" } : null;
    const video_url = job.status === "completed" ? `${server.origin}/hgcdn/${job.id}.mp4?Expires=${Date.now() + 86_400_000}&Signature=fake` : null;
    return {
      code: 100,
      message: "Success",
      data: { id: job.id, status: job.status, video_url, thumbnail_url: null, duration: job.status === "completed" ? 5 : null, error },
    };
  }

  function handle(req: TFakeRequest, res: http.ServerResponse) {
    if (req.method === "GET" && req.path.startsWith("/hgcdn/")) {
      const job = jobs.get(req.path.slice("/hgcdn/".length).replace(/\.mp4$/, ""));
      if (!job || job.status !== "completed" || job.behaviour.expiredLinks) return res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return res.writeHead(200, { "content-type": "video/mp4" }).end(fs.readFileSync(SAMPLE_MP4));
    }
    if (req.headers["x-api-key"] !== apiKey) return refuse(res, 401, "authentication_failed", "Invalid API key");
    if (req.method === "GET" && req.path === "/v2/user/remaining_quota")
      return sendJson(res, 200, { error: null, data: { remaining_quota: 3600, details: {} } });
    if (req.method === "POST" && req.path === "/v2/video/generate") {
      const bad = checkVideo(req.body);
      return bad
        ? refuse(res, bad.startsWith("Avatar") ? 404 : 400, bad.startsWith("Avatar") ? "avatar_not_found" : "invalid_parameter", bad)
        : create("video", req.body, res);
    }
    if (req.method === "POST" && req.path === "/v2/video_avatar") {
      const bad = checkAvatar(req.body);
      return bad ? refuse(res, 400, "invalid_parameter", bad) : create("avatar", req.body, res);
    }
    if (req.method === "GET" && req.path === "/v1/video_status.get") {
      const job = jobs.get(req.query.get("video_id") ?? "");
      if (!job || job.kind !== "video") return refuse(res, 404, "video_not_found", "Video not found");
      advance(job);
      return sendJson(res, 200, videoStatus(job));
    }
    const avatar = /^\/v2\/video_avatar\/([^/]+)$/.exec(req.path);
    if (req.method === "GET" && avatar) {
      const job = jobs.get(decodeURIComponent(avatar[1]));
      if (!job || job.kind !== "avatar") return refuse(res, 404, "avatar_not_found", "Avatar not found");
      advance(job);
      const error = job.status === "failed" ? FAILURES[(job.behaviour.outcome ?? "failed") as Exclude<THeygenOutcome, "succeed">] : null;
      return sendJson(res, 200, { error: null, data: { avatar_id: job.id, avatar_group_id: `group_${job.id}`, status: job.status, error } });
    }
    return refuse(res, 404, "not_found", `No route ${req.method} ${req.path}`);
  }

  const server = await startLoopback(handle);
  return {
    url: server.origin,
    apiKey,
    requests: server.requests,
    jobs,
    /** Avatars the fake holds: a preset one and every trained one. */
    avatars,
    behave(b: THeygenBehaviour) {
      behaviour = { ...b };
    },
    close: server.close,
  };
}

export type TFakeHeygen = Awaited<ReturnType<typeof startFakeHeygen>>;
