// A turn of an agent whose model draws pictures or makes videos. It replaces open and stream for
// such models: the reply is a generation job (server/media), not a chat completion. The turn charges
// the channel fee and writes its rows as any turn does, submits the job with the agent's role and
// prompt before the user's words, and waits for the job, telling the sink its progress as
// `media_generate` function steps. The reply's text is the results as markdown (a picture shown, a
// video linked) and the sink's finish carries them as media, so a channel can send them as
// pictures and videos of its own. The job's price is the payer's, held and charged by the job.
import { AppError, isAppError } from "../errors/app-error";
import { isErrorCode } from "../errors/codes";
import { mapError } from "../errors/map-error";
import { getEnv } from "../env";
import { logger } from "../lib/logger";
import { isFinishedJobState, PROMPT_MAX, type TMediaJob } from "../media/generation.schema";
import { findTurnJobId, getMediaJob, JOB_DEADLINE_MS, submitAgentVideoJob, submitImageJob, type TJobOrigin } from "../media/media-jobs.service";
import { getFileStore } from "../uploads/file-store";
import { readImageSize } from "../uploads/sniff";
import { PUBLIC_FILES_PATH } from "../uploads/uploads.service";
import { chargeTurn, type TTurnCharges } from "../money/metering/chat-charges.service";
import { settleTurn, writeTurnRows, type TTurnResult } from "./settle";
import type { TTurnMedia, TTurnSink } from "./sink";
import { newId, type TTurn } from "./turn";

const WATCH_EVERY_MS = 1000;

/** What the generation is asked: the agent's role and prompt, then the user's words. */
export function mediaPrompt(turn: TTurn) {
  const { role_style, prompt } = turn.agent.config;
  const text = [role_style, prompt, turn.userMessage.content]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join("\n");
  return Array.from(text).slice(-PROMPT_MAX).join("");
}

/** A result's address as a reader outside this site opens it (bots, API clients): absolute when the public URL is known. */
function absolute(url: string) {
  const base = getEnv().PUBLIC_URL?.replace(/\/+$/, "");
  return base && url.startsWith("/") ? `${base}${url}` : url;
}

export function toTurnMedia(job: TMediaJob): TTurnMedia[] {
  return job.outputs.map((o) => ({
    kind: job.kind === "video" ? "video" : "image",
    url: absolute(o.url),
    mime: o.mime,
    posterUrl: o.posterUrl ? absolute(o.posterUrl) : null,
  }));
}

export function mediaMarkdown(media: TTurnMedia[]) {
  return media.map((m, i) => (m.kind === "image" ? `![${i + 1}](${m.url})` : `[▶ ${i + 1}](${m.url})`)).join("\n\n");
}

/** The last picture sent with the message, as the video's first frame. */
async function firstFrameOf(turn: TTurn) {
  const url = turn.userMessage.images?.at(-1);
  const key = url?.slice(url.indexOf(PUBLIC_FILES_PATH) + PUBLIC_FILES_PATH.length);
  const file = key && url!.includes(PUBLIC_FILES_PATH) ? await getFileStore().get(key) : null;
  if (!file) throw new AppError("media_frame_required");
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  const size = readImageSize(Buffer.concat(chunks));
  if (!size) throw new AppError("media_frame_required");
  return { fileKey: key!, mime: file.contentType, ...size };
}

async function submit(turn: TTurn, kind: "image" | "video", origin: TJobOrigin) {
  const payer = { id: turn.bill.payer };
  const prompt = mediaPrompt(turn);
  if (kind === "image") return submitImageJob(payer, { model: turn.modelKey, prompt, aspectRatio: "1:1", quality: "standard", count: 1 }, origin);
  return submitAgentVideoJob(payer, { model: turn.modelKey, prompt, frame: await firstFrameOf(turn) }, origin);
}

async function waitForJob(payer: string, jobId: string, sink: TTurnSink, deadline: number): Promise<TMediaJob> {
  let last = "";
  for (;;) {
    const job = await getMediaJob({ id: payer }, { id: jobId });
    const mark = `${job.state}:${job.progress}`;
    if (mark !== last)
      sink.tool({
        name: "media_generate",
        type: "progress",
        params: { arguments: { job_id: job.id, kind: job.kind }, result: { state: job.state, progress: job.progress } },
      });
    last = mark;
    if (isFinishedJobState(job.state)) return job;
    // The reader went away: the job goes on (its results reach the gallery); the turn stops waiting.
    if (sink.signal.aborted || Date.now() > deadline) return job;
    await new Promise((r) => setTimeout(r, WATCH_EVERY_MS));
  }
}

export async function streamMediaTurn(turn: TTurn, kind: "image" | "video", sink: TTurnSink, lng: string | undefined) {
  // Refused before anything is charged or written: an app that does not show this kind of answer.
  if (turn.app && !turn.app.outputModes?.includes(kind)) return sink.fail(mapError(new AppError("app_output_unsupported"), lng).envelope);
  const assistantId = turn.replyId ?? newId();
  const requestId = newId();
  const noCharges: TTurnCharges = { chat: null, use: null };
  const charging = chargeTurn(turn.bill, assistantId, turn.dialogueId);
  const result = (over: Partial<TTurnResult>): TTurnResult => ({
    outcome: "failed",
    content: "",
    reasoning: "",
    functions: [],
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    failure: null,
    requestId,
    ...over,
  });
  let rowsWritten = false;
  try {
    await charging;
    await writeTurnRows(turn, assistantId, requestId);
    rowsWritten = true;
  } catch (err) {
    await settleTurn(
      turn,
      assistantId,
      charging.catch(() => noCharges),
      result({ failure: err }),
      rowsWritten,
    );
    return sink.fail(mapError(err, lng).envelope);
  }
  sink.begin({ messageId: assistantId, dialogueId: turn.dialogueId, showsReasoning: false });
  const origin: TJobOrigin = { origin: turn.app ? "app" : "agent", originRef: assistantId, appId: turn.app?.appId ?? null };
  try {
    // A turn resumed under its reply's id (a workshop turn whose worker died) waits for the job it
    // had submitted: submitting again would make and charge the picture twice.
    const earlier = turn.replyId ? await findTurnJobId({ id: turn.bill.payer }, assistantId) : null;
    const jobId = earlier ?? (await submit(turn, kind, origin)).id;
    // The job's own deadline ends it (its hold released) before this wait gives up.
    const job = await waitForJob(turn.bill.payer, jobId, sink, Date.now() + JOB_DEADLINE_MS[kind] + 2 * 60_000);
    if (job.state !== "done") {
      if (!isFinishedJobState(job.state)) {
        // The reader left (the job goes on to the gallery), or the job outlived its own deadline's sweep.
        await settleTurn(turn, assistantId, charging, result({ outcome: "stopped" }), rowsWritten);
        if (!sink.signal.aborted) sink.fail(mapError(new AppError("generation_timeout"), lng).envelope);
        return;
      }
      throw new AppError(isErrorCode(job.errorCode) ? job.errorCode : "generation_failed");
    }
    const media = toTurnMedia(job);
    const content = mediaMarkdown(media);
    sink.delta({ content });
    await settleTurn(turn, assistantId, charging, result({ outcome: "done", content }), rowsWritten);
    sink.finish({ userMessageId: turn.userMessage.id, content, passages: [], usage: { prompt_tokens: 0, completion_tokens: 0 }, stopped: false, media });
  } catch (err) {
    if (!isAppError(err)) logger.warn({ err }, "a media turn failed");
    await settleTurn(turn, assistantId, charging, result({ failure: err }), rowsWritten);
    sink.fail(mapError(err, lng).envelope);
  }
}
