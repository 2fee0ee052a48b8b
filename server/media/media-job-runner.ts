// The worker's side of generation jobs, for every provider alike:
//   dispatch  take the next job of the fair queue (repository: claimNextMediaJob) and submit it;
//   poll      ask the provider how the task goes, with a growing pause between asks; a callback
//             only brings the next poll forward (its body is never trusted on its own);
//   sweep     every few seconds: fail jobs past their deadline (their holds released), poll jobs
//             whose poll was lost with a killed worker, hand out queue tokens for waiting jobs.
// A job's state lives in its row, not in the worker: any worker can pick up any job where the last
// one left it. A job started but never submitted (the worker died in between) is submitted again.
import { getEnv } from "../env";
import { enqueueJob } from "../jobs/jobs";
import { logger } from "../lib/logger";
import * as models from "../models/models.repository";
import { getFileStore } from "../uploads/file-store";
import { withTransaction } from "../db/transaction";
import { isFinishedJobState } from "./generation.schema";
import { codeForFailure, failJob, finishJob, readResult, ResultGoneError } from "./media-job-results";
import { callbackBase, enqueueDispatch } from "./media-jobs.service";
import * as repo from "./media-jobs.repository";
import { buildDigitalRequest, isDigitalKind, isTrainingKind } from "./digital-requests";
import { buildProviderContext, findJobRoute, listJobRoutes, type TMediaRoute } from "./provider-routing";
import { getProvider } from "./providers";
import { ProviderError, type TInputImage, type TMediaRequest, type TProviderName, type TProviderStatus } from "./providers/provider";

/** Submissions refused for the moment (rate limits, network) are tried again this many times. */
const SUBMIT_ATTEMPTS = 5;

function settings() {
  const env = getEnv();
  return { perAccount: env.MEDIA_JOBS_PER_ACCOUNT, pollBaseMs: env.MEDIA_POLL_BASE_MS };
}

/** Trainings take days: asking every ten minutes is often enough and spares the provider thousands of calls. */
const TRAINING_POLL_CAP_MS = 10 * 60_000;

/** The pause before the next poll: starting at the base and growing by half each time, up to 15 s for pictures, 30 s for videos and lip-syncs, 10 min for trainings. */
export function pollDelayMs(kind: string, pollCount: number, baseMs = settings().pollBaseMs) {
  const cap = kind === "image" || kind === "speech" ? 15_000 : isTrainingKind(kind) ? TRAINING_POLL_CAP_MS : 30_000;
  return Math.min(Math.max(cap, baseMs), Math.round(baseMs * 1.5 ** Math.min(pollCount, 20)));
}

async function schedulePoll(job: { id: string; kind: string }, pollCount: number, delay = pollDelayMs(job.kind, pollCount)) {
  await repo.updateRunningJob(job.id, { nextPollAt: new Date(Date.now() + delay), pollCount });
  await enqueueJob("media.poll", { jobId: job.id }, { jobId: `poll-${job.id}-${pollCount}`, delay });
}

async function readPicture(p: { fileKey: string; mime: string; width: number; height: number }): Promise<TInputImage> {
  const file = await getFileStore().get(p.fileKey);
  if (!file) throw new ProviderError("bad_request", "a picture of the request is gone from the library");
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  return { bytes: Buffer.concat(chunks), mime: p.mime, width: p.width, height: p.height };
}

type TStoredPicture = { fileKey: string; mime: string; width: number; height: number };
type TStoredParams = { request: Record<string, unknown>; pictures: Record<string, TStoredPicture | undefined> };

/** The provider's request from the job's checked parameters. */
export async function buildRequest(job: repo.TMediaJobRow, upstreamModel: string): Promise<TMediaRequest> {
  if (isDigitalKind(job.kind)) return buildDigitalRequest(job, upstreamModel);
  const { request, pictures } = job.params as unknown as TStoredParams;
  if (job.kind === "image") {
    const reference = pictures.reference ? await readPicture(pictures.reference) : undefined;
    return { kind: "image", model: upstreamModel, ...(request as Omit<Extract<TMediaRequest, { kind: "image" }>, "kind" | "model">), reference };
  }
  if (job.kind === "video") {
    const firstFrame = await readPicture(pictures.firstFrame!);
    const tailFrame = pictures.tailFrame ? await readPicture(pictures.tailFrame) : undefined;
    return {
      kind: "video",
      model: upstreamModel,
      ...(request as Omit<Extract<TMediaRequest, { kind: "video" }>, "kind" | "model" | "firstFrame">),
      firstFrame,
      tailFrame,
    };
  }
  return { kind: "speech", model: upstreamModel, ...(request as { text: string; voice: string; format: "mp3" }) };
}

function contextFor(route: TMediaRoute, job: repo.TMediaJobRow) {
  let last = job.progress;
  return buildProviderContext(route, job, {
    publicUrl: callbackBase(),
    onProgress: (p) => {
      const progress = Math.max(last, Math.min(99, Math.round(p)));
      if (progress === last) return;
      last = progress;
      void repo.updateRunningJob(job.id, { progress }).catch((err) => logger.warn({ err, jobId: job.id }, "could not save progress"));
    },
  });
}

const LEASE_MS = 30_000;

async function holdSubmitLease(jobId: string) {
  const renew = () => repo.updateRunningJob(jobId, { nextPollAt: new Date(Date.now() + LEASE_MS) }).catch(() => false);
  await renew();
  const timer = setInterval(renew, LEASE_MS / 3);
  timer.unref();
  return () => clearInterval(timer);
}

/** One queue token: the fairest waiting job, submitted. */
export async function handleMediaDispatch() {
  const job = await withTransaction((tx) => repo.claimNextMediaJob(settings().perAccount, new Date(), tx));
  if (!job) return { started: null };
  await submitJob(job);
  return { started: job.id };
}

async function submitJob(job: repo.TMediaJobRow) {
  const model = await models.findModelByKey(job.modelKey);
  const routes = model?.enabled ? await listJobRoutes(job) : [];
  if (!model || !routes.length) return failJob(job, "media_model_unavailable", "failed");
  const request = await buildRequest(job, model.upstreamModel).catch((err: unknown) => err as Error);
  if (request instanceof Error) return failJob(job, "media_request_refused", "failed", request.message);
  let lastError: ProviderError | null = null;
  for (const route of routes) {
    // While the submission is in flight (SD WebUI draws inside it, for minutes) the job holds a lease
    // the sweep respects; a worker killed meanwhile lets it lapse, and the job is submitted again.
    const release = await holdSubmitLease(job.id);
    try {
      const submitted = await getProvider(route.provider).submit(contextFor(route, job), request).finally(release);
      const started = { provider: route.provider, channelId: route.channel.id, providerTaskId: submitted.taskId, pollCount: 0 };
      if (!(await repo.updateRunningJob(job.id, started))) return;
      const fresh = { ...job, ...started };
      if (submitted.status) return applyStatus(fresh, route, submitted.status);
      return schedulePoll(fresh, 0);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      lastError = err;
      // Another channel may take what this one cannot do right now; a refusal of the request itself ends the job.
      if (err.failure !== "rate_limited" && err.failure !== "upstream" && err.failure !== "balance") break;
    }
  }
  const transient = lastError && (lastError.failure === "rate_limited" || lastError.failure === "upstream");
  if (transient && job.pollCount + 1 < SUBMIT_ATTEMPTS) return schedulePoll(job, job.pollCount + 1, lastError!.retryAfterMs);
  return failJob(
    job,
    codeForFailure(lastError?.failure ?? "upstream"),
    lastError?.failure === "content_output" ? "failed_review" : "failed",
    lastError?.message,
  );
}

/** One poll of a job: its provider's word on the task, acted on. */
export async function handleMediaPoll({ jobId }: { jobId: string }) {
  const job = await repo.findMediaJob(jobId);
  if (!job || isFinishedJobState(job.state) || !job.startedAt) return;
  if (!job.providerTaskId || !job.provider || !job.channelId) return submitJob(job);
  const route = await findJobRoute(job.channelId, job.provider as TProviderName);
  if (!route) return failJob(job, "media_model_unavailable", "failed", "the job's channel was deleted");
  const model = await models.findModelByKey(job.modelKey);
  let status: TProviderStatus;
  try {
    const request = await buildRequest(job, model?.upstreamModel ?? job.modelKey);
    status = await getProvider(route.provider).poll(contextFor(route, job), job.providerTaskId, request);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    if (err.failure === "rate_limited" || err.failure === "upstream") return schedulePoll(job, job.pollCount + 1, err.retryAfterMs);
    status = { state: "failed", failure: err.failure, message: err.message };
  }
  return applyStatus(job, route, status);
}

async function applyStatus(job: repo.TMediaJobRow, route: TMediaRoute, status: TProviderStatus) {
  if (status.state === "failed") {
    return failJob(job, codeForFailure(status.failure), status.failure === "content_output" ? "failed_review" : "failed", status.message);
  }
  if (status.state === "succeeded" && isTrainingKind(job.kind)) {
    if (!status.result) return failJob(job, "generation_failed", "failed", "the provider finished the training without naming what it made");
    // A hook that could not record what was made leaves the job running: the next poll tries again.
    await finishJob(job, [], status.result).catch((err: unknown) => {
      logger.warn({ err, jobId: job.id }, "could not end a training; trying again");
      return schedulePoll(job, job.pollCount + 1);
    });
    return;
  }
  if (status.state === "succeeded") {
    const trusted = route.channel.ownerAccountId ? null : new URL(route.channel.baseUrl).host;
    try {
      const files = await Promise.all(status.outputs.map((o) => readResult(o, withPort(trusted, route.channel.baseUrl))));
      if (!files.length) return failJob(job, "generation_failed", "failed", "the provider answered no result");
      await finishJob(job, files);
    } catch (err) {
      if (err instanceof ResultGoneError) return failJob(job, "media_result_expired", "failed", err.message);
      logger.warn({ err, jobId: job.id }, "could not copy a job's results; trying again");
      return schedulePoll(job, job.pollCount + 1);
    }
    return;
  }
  const progress = Math.max(job.progress, Math.min(99, Math.round(status.progress ?? job.progress)));
  await repo.updateRunningJob(job.id, { progress, providerState: status.providerState ?? status.state });
  return schedulePoll(job, job.pollCount + 1);
}

/** host:port as the SSRF guard's allow list names it. */
function withPort(host: string | null, baseUrl: string) {
  if (!host) return null;
  if (host.includes(":")) return host;
  return `${host}:${new URL(baseUrl).protocol === "https:" ? 443 : 80}`;
}

/** The safety net, run every few seconds by the worker. */
export async function handleMediaSweep(now = new Date()) {
  for (const job of await repo.listExpiredMediaJobs(now)) {
    // One job whose ending is refused (a hook's fault) must not keep the others from ending.
    await failJob(job, "generation_timeout", "failed").catch((err: unknown) => logger.error({ err, jobId: job.id }, "could not end an expired job"));
  }
  const grace = Math.max(10_000, settings().pollBaseMs * 5);
  for (const job of await repo.listOverdueMediaJobs(new Date(now.getTime() - grace))) {
    await enqueueJob("media.poll", { jobId: job.id }, { jobId: `sweep-${job.id}-${job.pollCount}` });
  }
  const waiting = await repo.countWaitingMediaJobs();
  for (let i = 0; i < Math.min(waiting, 20); i++) await enqueueDispatch();
  return { waiting };
}

/** A provider's callback: the job is polled now, and the poll decides (a forged body changes nothing). */
export async function acceptMediaCallback(token: string) {
  const job = await repo.findMediaJobByCallbackToken(token);
  if (!job || isFinishedJobState(job.state)) return false;
  await enqueueJob("media.poll", { jobId: job.id }, { jobId: `callback-${job.id}-${job.pollCount}` });
  return true;
}
