// Generated pictures and videos in a chat reply. An agent on a picture or video model answers with a
// generation job: while it runs, its progress comes as `media_generate` function events; then the
// reply's text is the results as markdown (a picture shown, a video as a link) and `close` carries
// them as `media`, with the videos' posters. Shared by the console and the H5 chat, so no antd here.
import type { TMediaJobState } from "../../../server/media/generation.schema";

/** The function event's name under which a media turn reports its job. */
export const GENERATION_STEP = "media_generate";

export type TGeneration = { jobId: string; kind: "image" | "video"; state: TMediaJobState; progress: number };
export type TChatMedia = { kind: "image" | "video"; url: string; posterUrl: string | null };

const JOB_STATES: readonly string[] = ["queued", "generating", "background", "done", "failed", "failed_review"];
const VIDEO_PATH = /\.(mp4|webm|mov)$/i;

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

/** The job's progress from a `media_generate` step's params ({arguments: {job_id, kind}, result: {state, progress}}), or null when unreadable. */
export function readGeneration(params: unknown): TGeneration | null {
  const args = asRecord(asRecord(params).arguments);
  const result = asRecord(asRecord(params).result);
  if (typeof result.state !== "string" || !JOB_STATES.includes(result.state)) return null;
  const progress = typeof result.progress === "number" && Number.isFinite(result.progress) ? Math.min(100, Math.max(0, Math.round(result.progress))) : 0;
  return {
    jobId: typeof args.job_id === "string" ? args.job_id : "",
    kind: args.kind === "video" ? "video" : "image",
    state: result.state as TMediaJobState,
    progress,
  };
}

/** `close.media`: the results, skipping anything that is not a picture or a video with an address. */
export function readChatMedia(value: unknown): TChatMedia[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const m = asRecord(item);
    if ((m.kind !== "image" && m.kind !== "video") || typeof m.url !== "string" || !m.url) return [];
    return [{ kind: m.kind, url: m.url, posterUrl: typeof m.posterUrl === "string" && m.posterUrl ? m.posterUrl : null }];
  });
}

/** Whether a link's address names a video file by its extension (query and fragment aside). */
export function isVideoUrl(url: string) {
  return VIDEO_PATH.test(url.split(/[?#]/, 1)[0]);
}

/**
 * How a markdown link shows: as a playable video (with its poster when the reply's media names one)
 * when the media says it is a video or its address ends like one; null for an ordinary link. A
 * reply reopened from history has no media, so its videos are known by their addresses alone.
 */
export function findVideo(href: string, media: readonly TChatMedia[]): { posterUrl: string | null } | null {
  if (!href) return null;
  const known = media.find((m) => m.url === href);
  if (known) return known.kind === "video" ? { posterUrl: known.posterUrl } : null;
  return isVideoUrl(href) ? { posterUrl: null } : null;
}

/** The words for a job's state: a key under the caller's `generation` keys, and the percentage it names. */
export function describeGeneration(g: TGeneration): { key: string; progress: number } {
  if (g.state === "generating") return { key: g.progress > 0 ? "generating" : "starting", progress: g.progress };
  if (g.state === "done") return { key: "finishing", progress: 100 };
  return { key: g.state, progress: g.progress };
}
