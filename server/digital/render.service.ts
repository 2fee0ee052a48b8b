// A video's render, a chain of steps recorded on its row (the worker's job "digital.render"):
//   speech (0-20)    the script spoken and billed as a speech job whose id the render took when it
//                    started; the audio kept under media/<owner>/digital/
//   lipsync (20-70)  a trained figure with a lip-sync route: its clip re-timed to the speech by a
//                    provider (a media job, held and charged on its own); the job's end hook moves on
//   composite (70-100) the figure keyed over the background with the speech, by ffmpeg here; the mp4
//                    becomes a generated item of the owner's library, then the video is done.
// Each step checks what is already there, so a worker killed mid-render resumes from the step on the
// row without paying twice: the speech job replays its audio, the lip-sync job is found by its
// origin, the composite's library item by its key. Any failure fails the render with the
// catalogue's code; the speech and lip-sync holds are settled by their own jobs.
import { withTransaction } from "../db/transaction";
import type { TTx } from "../db/transaction";
import { AppError, isAppError } from "../errors/app-error";
import { isErrorCode } from "../errors/codes";
import { enqueueJob, type TJobPayload } from "../jobs/jobs";
import { logger } from "../lib/logger";
import { submitLipsyncJob } from "../media/digital-jobs.service";
import { getFileWork } from "../media/file-work";
import { onMediaJobEnded, type TEndedJob } from "../media/job-finish-hooks";
import { speakBilled } from "../media/speech.service";
import { avatarOf, planRender, refusalFor } from "./render-plan";
import { composeVideo } from "./render-composite";
import { lipsyncVideoFor } from "./lipsync-clip";
import * as repo from "./videos.repository";
import type { TRenderStep } from "./videos.schema";

type TRenderRef = { id: string; speechJobId: string };
type TRunningRow = repo.TVideoRow & { speechJobId: string; renderStartedAt: Date };

/** How often a step told the lip-sync ended looks again for that ending to be committed. */
const ENDING_RETRIES = 5;

/** Queues the render's next run at `step`; one job per render, step and retry. */
export async function enqueueRender(ref: TRenderRef, step: TRenderStep, opts: { retry?: number; delay?: number } = {}) {
  const retry = opts.retry ?? 0;
  await enqueueJob(
    "digital.render",
    { videoId: ref.id, step, retry },
    { jobId: `digital-render-${ref.id}-${ref.speechJobId}-${step}-${retry}`, delay: opts.delay },
  );
}

/** Fails the render (any step); the holds of its speech and lip-sync stay with their own jobs. */
export async function failRender(row: TRenderRef, err: unknown, tx?: TTx) {
  const code = isAppError(err) ? err.code : "digital_render_failed";
  if (!isAppError(err)) logger.error({ err, videoId: row.id }, "digital render failed");
  const detail = err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500);
  await repo.moveRender(row.id, row.speechJobId, { renderState: "failed", errorCode: code, errorDetail: detail }, null, tx);
}

/** The job handler (workers/main.ts): runs the render from the step its row records. */
export async function handleDigitalRender(payload: TJobPayload<"digital.render">): Promise<string> {
  const row = await repo.findVideoForRender(payload.videoId);
  if (!row?.speechJobId || !row.renderStartedAt || !row.renderState || !repo.RUNNING_STATES.includes(row.renderState)) return "ended";
  const running = row as TRunningRow;
  try {
    if (row.deletedAt) throw new AppError("not_found");
    if (row.renderStep === "speech") return await speechStep(running);
    if (row.renderStep === "lipsync") return await lipsyncStep(running, null, payload);
    if (row.renderStep === "composite") return await compositeStep(running);
    throw new Error(`a render at an unknown step: ${row.renderStep}`);
  } catch (err) {
    await failRender(running, err);
    return "failed";
  }
}

type TSpokenAudio = { key: string; durationMs: number };

async function speechStep(row: TRunningRow): Promise<string> {
  await repo.moveRender(row.id, row.speechJobId, { renderState: "generating", progress: 5 }, "speech");
  // Checked again: the figure, voice or models may have changed while the render waited.
  const plan = await planRender(row.ownerAccountId, row);
  if (plan.problems.length) throw refusalFor(plan.problems[0]);
  const spoken = await speakBilled({
    jobId: row.speechJobId,
    payer: row.ownerAccountId,
    refusal: "balance_insufficient",
    text: plan.script,
    speaker: plan.voice.speaker,
    ownVoice: plan.voice.ownVoice,
    folder: "digital",
    origin: "digital_video",
    appId: null,
    originRef: row.id,
    requester: `digital_video:${row.id}`,
  });
  const audio = { key: spoken.fileKey, durationMs: await measureAudio(spoken.fileKey) };
  const next = plan.path === "lipsync" ? "lipsync" : "composite";
  if (!(await repo.moveRender(row.id, row.speechJobId, { renderStep: next, progress: next === "lipsync" ? 20 : 70 }, "speech"))) return "ended";
  const moved = { ...row, renderStep: next };
  return next === "lipsync" ? lipsyncStep(moved, audio, null) : compositeStep(moved);
}

async function measureAudio(key: string) {
  const { durationMs } = await getFileWork().measureVoice(key);
  if (!durationMs) throw new AppError("voice_unavailable", { message: "the spoken audio has no length" });
  return durationMs;
}

/** The speech this render made (its job's kept audio). */
async function speechOf(row: TRunningRow): Promise<TSpokenAudio> {
  const job = await repo.findRenderJob(row.speechJobId);
  const key = job?.state === "done" ? (job.outputs as { fileKey?: string }[])[0]?.fileKey : undefined;
  if (!key) throw new AppError("voice_unavailable", { message: "the render's speech is gone" });
  return { key, durationMs: await measureAudio(key) };
}

/** The render's lip-sync job: the one recorded, or one submitted before a killed worker could record it. */
async function lipsyncJobOf(row: TRunningRow) {
  if (row.lipsyncJobId) return repo.findRenderJob(row.lipsyncJobId);
  const found = await repo.findLipsyncJobOfRender(row.id, row.renderStartedAt);
  if (found) await repo.moveRender(row.id, row.speechJobId, { lipsyncJobId: found.id }, "lipsync");
  return found;
}

async function submitLipsync(row: TRunningRow, audio: TSpokenAudio | null) {
  const figure = row.figureId ? await repo.findFigure(row.ownerAccountId, row.figureId) : null;
  if (!figure?.loopFileKey) throw new AppError("digital_figure_not_ready");
  const spoken = audio ?? (await speechOf(row));
  const clip = await lipsyncVideoFor({ loopFileKey: figure.loopFileKey, check: figure.check }, spoken.durationMs);
  const { jobId } = await submitLipsyncJob({
    ownerAccountId: row.ownerAccountId,
    videoKey: clip.key,
    videoDurationMs: clip.durationMs,
    audioKey: spoken.key,
    audioDurationMs: spoken.durationMs,
    avatar: avatarOf(figure),
    origin: "digital_video",
    originRef: row.id,
  });
  await repo.moveRender(row.id, row.speechJobId, { renderState: "generating", lipsyncJobId: jobId }, "lipsync");
  return "lipsync";
}

/**
 * Submits the lip-sync once, or acts on its ending when the hook could not (a worker killed
 * between). A run queued by the hook may find the ending not yet committed: it looks again shortly.
 */
async function lipsyncStep(row: TRunningRow, audio: TSpokenAudio | null, payload: TJobPayload<"digital.render"> | null): Promise<string> {
  const job = await lipsyncJobOf(row);
  if (!job) return submitLipsync(row, audio);
  if (job.state === "done" || job.state === "failed" || job.state === "failed_review") {
    const advanced = await withTransaction((tx) => advanceAfterLipsync(row, job, tx));
    return advanced ? compositeStep({ ...row, lipsyncJobId: job.id, renderStep: "composite" }) : "ended";
  }
  const retry = payload?.retry ?? 0;
  if (payload?.step === "composite" && retry < ENDING_RETRIES) await enqueueRender(row, "composite", { retry: retry + 1, delay: 1_000 });
  return "waiting";
}

/** Moves the render on from its lip-sync's ending: to the composite, or failed with the job's code. True when it goes on. */
async function advanceAfterLipsync(row: TRenderRef, job: { id: string; state: string; errorCode: string | null }, tx: TTx) {
  if (job.state !== "done") {
    await failRender(row, new AppError(isErrorCode(job.errorCode) ? job.errorCode : "generation_failed"), tx);
    return false;
  }
  return repo.moveRender(row.id, row.speechJobId, { renderStep: "composite", progress: 70, lipsyncJobId: job.id }, "lipsync", tx);
}

async function compositeStep(row: TRunningRow): Promise<string> {
  await repo.moveRender(row.id, row.speechJobId, { renderState: "generating", progress: 75 }, "composite");
  const speech = await repo.findRenderJob(row.speechJobId);
  const audioKey = speech?.state === "done" ? (speech.outputs as { fileKey?: string }[])[0]?.fileKey : undefined;
  if (!audioKey) throw new AppError("voice_unavailable", { message: "the render's speech is gone" });
  const lipsync = row.lipsyncJobId ? await repo.findRenderJob(row.lipsyncJobId) : null;
  const clipKey = lipsync ? (lipsync.outputs as { fileKey?: string }[])[0]?.fileKey : undefined;
  if (lipsync && !clipKey) throw new AppError("generation_failed", { message: "the lip-sync delivered no clip" });
  return (await composeVideo(row, { audioKey, clipKey: clipKey ?? null })) ? "done" : "ended";
}

/** The lip-sync job's end moves its render on, in the transaction that ended the job. */
export async function onLipsyncEnded(job: TEndedJob, tx: TTx) {
  const videoId = (job.params as { videoId?: unknown } | null)?.videoId;
  if (typeof videoId !== "string") return;
  const row = await repo.findVideoForRender(videoId, tx);
  if (!row?.speechJobId || row.renderStep !== "lipsync" || row.ownerAccountId !== job.ownerAccountId) return;
  if (row.lipsyncJobId && row.lipsyncJobId !== job.id) return;
  const ref = { id: row.id, speechJobId: row.speechJobId };
  if (!(await advanceAfterLipsync(ref, job, tx))) return;
  // Queued once the hook has returned, and run a moment later: the run must see this transaction's
  // writes, and the enqueue must not wait inside it (the embedded database serves one connection at
  // a time, so a queue write from within the transaction would wait for the transaction to end).
  setImmediate(() => {
    enqueueRender(ref, "composite", { delay: 1_000 }).catch((err) => logger.warn({ err, videoId }, "could not queue a render's composite"));
  });
}

/** Registers the lip-sync hook (idempotent) in the process whose media jobs end: the worker. */
export function registerRenderHooks() {
  onMediaJobEnded(["lipsync"], onLipsyncEnded);
}
