// REST of generation jobs:
//   GET  /api/v1/media/jobs/events?ids=a,b   live progress: an `event: job` (the job's view) whenever
//        one of the caller's named jobs changes state or progress; the stream ends when all have
//        ended. A page that goes away while its jobs run leaves them in the background.
//   POST /api/v1/media/jobs/background       {ids, _csrf} form-encoded, as navigator.sendBeacon sends
//        it when a page is hidden: the named jobs go on in the background.
//   POST /api/v1/media/callbacks/:token      a provider's callback. The token in the URL names the job;
//        the body is not trusted: the job is polled at once and the provider's answer decides.
import express, { type Request, type Response } from "express";
import { z } from "zod";
import { requireAuth } from "../http/auth-context";
import { handle, sendError } from "../http/envelope-response";
import { logger } from "../lib/logger";
import { setEventStreamHeaders } from "../http/event-stream";
import { isFinishedJobState, type TMediaJob } from "./generation.schema";
import { acceptMediaCallback } from "./media-job-runner";
import { moveToBackground, watchMediaJobs } from "./media-jobs.service";

const WATCH_EVERY_MS = 1000;
const WATCH_MAX = 50;
const ZIds = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().min(1).max(64)).min(1).max(WATCH_MAX));

/** Raw body of a provider's callback, read by this router alone: it comes before the API's CSRF check. */
export function createMediaCallbackRouter() {
  const router = express.Router();
  router.post("/v1/media/callbacks/:token", express.json({ limit: "256kb", type: () => true }), (req, res) => {
    acceptMediaCallback(String(req.params.token)).then(
      (known) => res.status(known ? 200 : 404).json(known ? { code: 0, message: "ok" } : { code: 404, message: "unknown task" }),
      (err) => {
        logger.error({ err }, "media: a provider's callback could not be taken");
        res.status(500).json({ code: 500, message: "try again" });
      },
    );
  });
  return router;
}

async function streamJobs(req: Request, res: Response) {
  const { account } = await requireAuth(req);
  const ids = ZIds.parse(req.query.ids);
  // Refused (none of them the caller's) before the stream starts.
  const initial = await watchMediaJobs(account, ids);
  setEventStreamHeaders(res);
  const seen = new Map<string, string>();
  let open = true;
  let unfinished: string[] = ids;
  res.on("close", () => {
    open = false;
    if (unfinished.length) moveToBackground(account, unfinished).catch((err) => logger.warn({ err }, "media: could not move jobs to the background"));
  });
  const send = (job: TMediaJob) => res.write(`event: job\ndata: ${JSON.stringify(job)}\n\n`);
  for (let jobs = initial; open; jobs = await watchMediaJobs(account, ids)) {
    for (const job of jobs) {
      const mark = `${job.state}:${job.progress}`;
      if (seen.get(job.id) !== mark) send(job);
      seen.set(job.id, mark);
    }
    unfinished = jobs.filter((j) => !isFinishedJobState(j.state)).map((j) => j.id);
    if (!unfinished.length) break;
    await new Promise((r) => setTimeout(r, WATCH_EVERY_MS));
    if (!open) break;
  }
  if (open) res.end();
}

export function createMediaJobsRouter() {
  const router = express.Router();
  router.get("/v1/media/jobs/events", (req, res) => {
    streamJobs(req, res).catch((err) => (res.headersSent ? res.end() : sendError(req, res, err)));
  });
  router.post(
    "/v1/media/jobs/background",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      await moveToBackground(account, ZIds.parse(req.body?.ids));
      return { ok: true };
    }),
  );
  return router;
}
