// A loopback stand-in for a self-hosted HeyGem (Duix.Avatar) face2face service: POST /easy/submit
// {audio_url, video_url, code, chaofen, watermark_switch, pn} and GET /easy/query?code=, in its
// envelope {code, msg, success, data}; 10000 is success, 10004 "no such task", 10002 a code already
// used. A task answers status 1 with growing progress `pollsUntilDone` times, then 2 with `result`,
// a path on this server (/temp/<code>-r.mp4, the bytes of tests/fixtures/media/sample.mp4), or 3
// with the reason in msg. With a token the fake sits behind a proxy that wants it as a bearer
// (401 otherwise). Outcomes: succeed, failed (late), no_face, too_long; `submitError` refuses the
// submission (no_face, too_long, busy) or, for rate_limited, the proxy answers 429; with
// `expiredLinks` the result path answers 404 (the server cleaned its temp folder).
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { sendJson, startLoopback, type TFakeRequest } from "./media-fake-kit";

export type THeygemOutcome = "succeed" | "failed" | "no_face" | "too_long";
export type THeygemBehaviour = {
  outcome?: THeygemOutcome;
  pollsUntilDone?: number;
  submitError?: "no_face" | "too_long" | "busy" | "rate_limited";
  expiredLinks?: boolean;
};
type TTask = { code: string; body: any; reads: number; status: 1 | 2 | 3; progress: number; msg: string; behaviour: THeygemBehaviour };

const SAMPLE_MP4 = path.resolve(import.meta.dirname, "../fixtures/media/sample.mp4");
const FAILURES: Record<Exclude<THeygemOutcome, "succeed">, string> = {
  failed: "合成失败: CUDA error: an illegal memory access was encountered",
  no_face: "人脸检测失败: no face detected in the video",
  too_long: "音频时长超过限制",
};
const SUBMIT_REFUSALS = { no_face: FAILURES.no_face, too_long: FAILURES.too_long, busy: "服务繁忙，请稍后再试" };
const isUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v);

export async function startFakeHeygem(opts: { token?: string } = {}) {
  const tasks = new Map<string, TTask>();
  let behaviour: THeygemBehaviour = {};

  function submit(body: any, res: http.ServerResponse) {
    if (!body || !isUrl(body.audio_url) || !isUrl(body.video_url) || typeof body.code !== "string" || !body.code)
      return sendJson(res, 200, { code: 9999, msg: "参数错误: audio_url, video_url and code are required", success: false, data: {} });
    if (body.chaofen !== 0 || body.watermark_switch !== 0 || body.pn !== 1)
      return sendJson(res, 200, { code: 9999, msg: "参数错误", success: false, data: {} });
    if (tasks.has(body.code)) return sendJson(res, 200, { code: 10002, msg: "任务已存在", success: false, data: {} });
    if (behaviour.submitError === "rate_limited") return sendJson(res, 429, { message: "Too Many Requests" });
    if (behaviour.submitError) return sendJson(res, 200, { code: 10003, msg: SUBMIT_REFUSALS[behaviour.submitError], success: false, data: {} });
    tasks.set(body.code, { code: body.code, body, reads: 0, status: 1, progress: 0, msg: "任务已提交", behaviour: { ...behaviour } });
    return sendJson(res, 200, { code: 10000, msg: "success", success: true, data: {} });
  }

  function query(code: string, res: http.ServerResponse) {
    const task = tasks.get(code);
    if (!task) return sendJson(res, 200, { code: 10004, msg: "任务不存在", success: false, data: null });
    task.reads++;
    const polls = task.behaviour.pollsUntilDone ?? 1;
    if (task.status === 1 && task.reads > polls) {
      const outcome = task.behaviour.outcome ?? "succeed";
      task.status = outcome === "succeed" ? 2 : 3;
      task.progress = outcome === "succeed" ? 100 : task.progress;
      task.msg = outcome === "succeed" ? "合成成功" : FAILURES[outcome];
    } else if (task.status === 1) {
      task.progress = Math.round((task.reads / (polls + 1)) * 100);
      task.msg = "合成中";
    }
    const result = task.status === 2 ? `/temp/${code}-r.mp4` : "";
    return sendJson(res, 200, { code: 10000, msg: "", success: true, data: { code, status: task.status, progress: task.progress, msg: task.msg, result } });
  }

  function handle(req: TFakeRequest, res: http.ServerResponse) {
    if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) return sendJson(res, 401, { message: "Unauthorized" });
    if (req.method === "POST" && req.path === "/easy/submit") return submit(req.body, res);
    if (req.method === "GET" && req.path === "/easy/query") return query(req.query.get("code") ?? "", res);
    const file = /^\/temp\/(.+)-r\.mp4$/.exec(req.path);
    if (req.method === "GET" && file) {
      const task = tasks.get(decodeURIComponent(file[1]));
      if (!task || task.status !== 2 || task.behaviour.expiredLinks) return res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return res.writeHead(200, { "content-type": "video/mp4" }).end(fs.readFileSync(SAMPLE_MP4));
    }
    return res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
  }

  const server = await startLoopback(handle);
  return {
    url: server.origin,
    token: opts.token ?? "",
    requests: server.requests,
    tasks,
    behave(b: THeygemBehaviour) {
      behaviour = { ...b };
    },
    close: server.close,
  };
}

export type TFakeHeygem = Awaited<ReturnType<typeof startFakeHeygem>>;
