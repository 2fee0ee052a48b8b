// The browser's side of media generation: the tRPC calls of the drawing screen, the video screen and
// the gallery, the event stream that reports a job's progress, and the beacon that tells the server
// nobody is watching a job any more.
import { ApiError } from "../../lib/api-client";
import { readCsrfToken } from "../../lib/post-form-data";
import { callTrpc, trpc } from "../../lib/trpc";
import {
  isFinishedJobState,
  type TImageJobInput,
  type TListMediaJobsInput,
  type TMediaJob,
  type TVideoJobInput,
} from "../../../server/media/generation.schema";
import type { TAppType } from "../../../server/apps/apps.schema";

export type { TMediaJob, TMediaJobOutput, TMediaModel } from "../../../server/media/generation.schema";

export const generationApi = {
  listModels: (kind: "image" | "video") => callTrpc(() => trpc.mediaJobs.models.query({ kind })),
  submitImage: (input: TImageJobInput) => callTrpc(() => trpc.mediaJobs.submitImage.mutate(input)),
  submitVideo: (input: TVideoJobInput) => callTrpc(() => trpc.mediaJobs.submitVideo.mutate(input)),
  listJobs: (input: TListMediaJobsInput) => callTrpc(() => trpc.mediaJobs.list.query(input)),
  getJob: (id: string) => callTrpc(() => trpc.mediaJobs.get.query({ id })),
  retryJob: (id: string) => callTrpc(() => trpc.mediaJobs.retry.mutate({ id })),
  backgroundJob: (id: string) => callTrpc(() => trpc.mediaJobs.background.mutate({ id })),
  removeJob: (id: string) => callTrpc(() => trpc.mediaJobs.remove.mutate({ id })),
  /** The account's apps that show pictures or videos (an API app has no page to put them on). */
  listApps: async () => (await callTrpc(() => trpc.apps.list.query({ deleted: false }))).filter((a) => a.type !== "api"),
};

export const JOB_EVENTS_PATH = "/api/v1/media/jobs/events";
export const JOB_BACKGROUND_PATH = "/api/v1/media/jobs/background";
/** How often jobs are asked about when the event stream cannot be opened. */
const POLL_MS = 3000;

export const isRunning = (job: Pick<TMediaJob, "state">) => !isFinishedJobState(job.state);

/**
 * Follows jobs until each is finished: over the event stream, or, when the stream cannot be opened
 * or breaks (a proxy that refuses it, a lost connection), by asking every few seconds. Answers the stop function.
 */
export function followJobs(ids: string[], onJob: (job: TMediaJob) => void, onGone?: (id: string) => void): () => void {
  const waiting = new Set(ids);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const take = (job: TMediaJob) => {
    if (stopped) return;
    onJob(job);
    if (!isRunning(job)) waiting.delete(job.id);
  };
  const poll = async () => {
    await Promise.all(
      [...waiting].map((id) =>
        generationApi.getJob(id).then(take, (err: unknown) => {
          // A job refused (deleted, or not ours) is not asked about again; a lost connection is tried next time.
          if (!(err instanceof ApiError)) return;
          waiting.delete(id);
          onGone?.(id);
        }),
      ),
    );
    if (!stopped && waiting.size) timer = setTimeout(() => void poll(), POLL_MS);
  };
  const source = typeof EventSource === "undefined" ? null : new EventSource(`${JOB_EVENTS_PATH}?ids=${ids.map(encodeURIComponent).join(",")}`);
  if (source) {
    source.addEventListener("job", (e) => {
      take(JSON.parse((e as MessageEvent<string>).data) as TMediaJob);
      // The server ends the stream once every job is finished; closing first keeps the browser from reconnecting.
      if (!waiting.size) source.close();
    });
    source.onerror = () => {
      // The stream broke or ended with jobs still waiting (one deleted meanwhile, say): asking about
      // each settles them all, where the browser's own reconnecting could go on for ever.
      source.close();
      if (!stopped && waiting.size) void poll();
    };
  } else void poll();
  return () => {
    stopped = true;
    source?.close();
    clearTimeout(timer);
  };
}

/**
 * Tells the server the page is going away while these jobs run: they go on in the background. A
 * beacon cannot set headers, so the CSRF token travels in the form body.
 */
export function sendBackgroundBeacon(ids: string[]) {
  if (!ids.length || typeof navigator === "undefined" || !navigator.sendBeacon) return;
  const body = new URLSearchParams({ ids: ids.join(",") });
  const csrf = readCsrfToken();
  if (csrf) body.set("_csrf", csrf);
  navigator.sendBeacon(JOB_BACKGROUND_PATH, body);
}

/** Where an app of each type is edited (the same paths as the list of my apps). */
export function appEditorPath(app: { id: string; type: TAppType }) {
  const id = encodeURIComponent(app.id);
  return app.type === "api" ? `/create_api?id=${id}` : `/create_app?id=${id}${app.type === "h5" ? "" : `&type=${app.type}`}`;
}
