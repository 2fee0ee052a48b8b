// A digital-human app's reply as a lip-synced clip: the figure's filmed loop re-timed by a provider
// to the reply's speech, for a trained figure, when the consumer's use is one a plan pays for (or
// the owner's own). Everyone else hears the reply over the idle loop: a clip costs the app's owner
// 0.5 Z per started 5 seconds, too much to give to every free visitor.
//
// The page asks for a reply's clip, then asks again until it is there. The first ask queues a
// worker job (only the worker can measure the speech's length, which sets the price); the job
// submits the lip-sync under an id made from the message's, so asking twice, or a retried worker,
// makes and holds one job. Its file is recorded on the app's instance when it ends, to be cleared with it.
import crypto from "node:crypto";
import { AppError } from "../errors/app-error";
import { enqueueJob, type TJobPayload } from "../jobs/jobs";
import { getQueue } from "../jobs/queue";
import { submitLipsyncJob } from "../media/digital-jobs.service";
import { getFileWork } from "../media/file-work";
import { onMediaJobEnded, type TEndedJob } from "../media/job-finish-hooks";
import * as mediaJobs from "../media/media-jobs.repository";
import { toPublicFileUrl } from "../uploads/uploads.service";
import type { TTx } from "../db/transaction";
import { assertConsumerOwns, loadOpenableApp } from "./app-access.service";
import { assertMayUse, type TConsumer } from "./app-entitlements.service";
import { findAppForTurn, findAppMessage, type TAppForTurn } from "./app-uses.repository";
import { openInstance, recordInstanceFile } from "../digital/instances.service";
import { avatarOf, canLipsync, USABLE_FIGURE_STATES } from "../digital/render-plan";
import { lipsyncVideoFor } from "../digital/lipsync-clip";
import { readScene } from "./digital-stage.service";
import * as repo from "../digital/app-stage.repository";
import type { TClipInput, TClipView } from "../digital/app-stage.schema";

const CLIP_JOB = "digital.app-clip";

/** The lip-sync job's id for a reply: the same reply always names the same job. */
export const clipJobIdOf = (messageId: string) => `mj${crypto.hash("sha256", `app-clip:${messageId}`, "hex").slice(0, 22)}`;
const queueJobIdOf = (messageId: string) => `app-clip-${messageId}`;
const speechJobIdOf = (messageId: string) => `${messageId}-speech`;

type TClipJobRow = NonNullable<Awaited<ReturnType<typeof mediaJobs.findMediaJob>>>;

function clipFileOf(outputs: unknown): { fileKey: string; size: number } | null {
  const first = Array.isArray(outputs) ? (outputs[0] as { fileKey?: unknown; size?: unknown } | undefined) : undefined;
  return typeof first?.fileKey === "string" ? { fileKey: first.fileKey, size: typeof first.size === "number" ? first.size : 0 } : null;
}

function viewOfJob(job: TClipJobRow): TClipView {
  if (job.state === "done") {
    const file = clipFileOf(job.outputs);
    return file ? { state: "done", url: toPublicFileUrl(file.fileKey) } : { state: "failed", url: null };
  }
  if (job.state === "failed" || job.state === "failed_review") return { state: "failed", url: null };
  return { state: job.state === "queued" ? "queued" : "generating", url: null };
}

/** Why this reply is spoken over the idle loop instead; null when a clip may be made. */
async function whyNoClip(app: TAppForTurn, consumer: TConsumer, messageId: string): Promise<TClipView["reason"] | null> {
  const basis = await assertMayUse(app, consumer).catch(() => null);
  if (basis !== "owner" && basis !== "plan") return "plan";
  const scene = readScene(app.settings);
  const figure = scene.figure_id ? await repo.findStageFigure(app.ownerAccountId, scene.figure_id) : null;
  const avatar = figure && USABLE_FIGURE_STATES.includes(figure.state) && figure.loopFileKey ? avatarOf(figure) : null;
  if (!avatar || !(await canLipsync(app.ownerAccountId, avatar))) return "figure";
  const speech = await mediaJobs.findMediaJob(speechJobIdOf(messageId));
  if (speech?.state !== "done" || speech.ownerAccountId !== app.ownerAccountId || !clipFileOf(speech.outputs)) return "speech";
  return null;
}

/** The worker job for a reply that has none yet, or what became of it. */
async function queuedClip(app: TAppForTurn, messageId: string): Promise<TClipView> {
  const queued = await getQueue("digital-clips").getJob(queueJobIdOf(messageId));
  const state = queued ? await queued.getState() : null;
  // A worker job that ended without making the lip-sync was refused (no model, no money, no speech).
  if (state === "failed" || state === "completed") return { state: "failed", url: null };
  if (!queued) await enqueueJob(CLIP_JOB, { appId: app.id, messageId }, { jobId: queueJobIdOf(messageId), attempts: 1 });
  return { state: "preparing", url: null };
}

/** The page's ask for a reply's clip (POST /api/v2/app/digital/clip): the consumer's own reply of this app only. */
export async function requestReplyClip(consumer: TConsumer, input: TClipInput): Promise<TClipView> {
  const app = await loadOpenableApp(input.app_id, consumer, "h5");
  if (app.type !== "digital_human") throw new AppError("not_found");
  const message = await findAppMessage(input.message_id);
  if (!message || message.role !== "assistant" || message.dialogue.deletedAt || message.dialogue.appId !== app.id) throw new AppError("not_found");
  assertConsumerOwns(message.dialogue, consumer);
  const job = await mediaJobs.findMediaJob(clipJobIdOf(message.id));
  if (job) return viewOfJob(job);
  const reason = await whyNoClip(app, consumer, message.id);
  if (reason) return { state: "unavailable", url: null, reason };
  return queuedClip(app, message.id);
}

/** The worker's part (job digital.app-clip): the speech measured, the lip-sync submitted and held. */
export async function handleAppClip(payload: TJobPayload<"digital.app-clip">): Promise<string> {
  const app = await findAppForTurn(payload.appId);
  if (!app || app.type !== "digital_human") throw new AppError("not_found");
  const scene = readScene(app.settings);
  const figure = scene.figure_id ? await repo.findStageFigure(app.ownerAccountId, scene.figure_id) : null;
  if (!figure?.loopFileKey || !USABLE_FIGURE_STATES.includes(figure.state)) throw new AppError("digital_figure_not_ready");
  const speech = await mediaJobs.findMediaJob(speechJobIdOf(payload.messageId));
  const audio = speech?.state === "done" && speech.ownerAccountId === app.ownerAccountId ? clipFileOf(speech.outputs) : null;
  if (!audio) throw new AppError("voice_unavailable", { message: "the reply's speech is gone" });
  const { durationMs } = await getFileWork().measureVoice(audio.fileKey);
  if (!durationMs) throw new AppError("voice_unavailable", { message: "the reply's speech has no length" });
  const instance = await openInstance({ appId: app.id, ownerAccountId: app.ownerAccountId });
  const clip = await lipsyncVideoFor({ loopFileKey: figure.loopFileKey, check: figure.check }, durationMs);
  await submitLipsyncJob({
    ownerAccountId: app.ownerAccountId,
    videoKey: clip.key,
    videoDurationMs: clip.durationMs,
    audioKey: audio.fileKey,
    audioDurationMs: durationMs,
    avatar: avatarOf(figure),
    origin: "app",
    originRef: payload.messageId,
    appId: app.id,
    jobId: clipJobIdOf(payload.messageId),
    instanceId: instance.id,
  });
  return "submitted";
}

/** A finished clip's file joins its instance's files, in the transaction that ends the job. */
async function recordClipOnInstance(job: TEndedJob, tx: TTx) {
  const instanceId = (job.params as { instanceId?: unknown } | null)?.instanceId;
  const file = job.state === "done" ? clipFileOf(job.outputs) : null;
  if (typeof instanceId !== "string" || !file) return;
  await recordInstanceFile(instanceId, { fileKey: file.fileKey, kind: "lipsync", bytes: file.size }, tx);
}

/** The worker's wiring (workers/main.ts). */
export function registerAppClipHooks() {
  onMediaJobEnded(["lipsync"], recordClipOnInstance);
}
