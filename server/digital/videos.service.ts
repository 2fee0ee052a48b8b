// Digital-human videos (the editor at /CreateAppDigital): a figure placed on a background, a voice
// and a script, rendered into an mp4 of the owner's library (render.service.ts runs the chain).
// - Every id a request names, and every id a video refers to, is the caller's: another account's
//   video, figure, voice or library item is not found. A figure must be keyed and usable, an own
//   voice ready, an announcer one that some voice model speaks now.
// - A render starts only when it can run (render-plan.ts) and the caller can pay what the quote
//   says; a refusal writes nothing. One render runs per video at a time.
import { getWallet } from "../money/ledger.service";
import { randomToken } from "../lib/secret-box";
import { AppError } from "../errors/app-error";
import { listAvailableVoices } from "../media/speech.service";
import { planRender, refusalFor, isUsableFigure } from "./render-plan";
import { enqueueRender, failRender } from "./render.service";
import { toVideoListItem, toVideoProgress, toVideoView, type TVideoLookups } from "./video-view";
import * as repo from "./videos.repository";
import {
  ownVoiceIdOf,
  type TCreateVideoInput,
  type TDigitalVideo,
  type TUpdateVideoInput,
  type TVideoIdInput,
  type TVideoListItem,
  type TVideoProgress,
  type TVideoProgressInput,
  type TVideoQuote,
} from "./videos.schema";

export type TVideoActor = { id: string };

async function lookupsFor(accountId: string, rows: repo.TVideoRow[]): Promise<TVideoLookups> {
  const ids = <T>(pick: (r: repo.TVideoRow) => T | null) => [...new Set(rows.map(pick).filter((v): v is T => Boolean(v)))];
  const [figures, items, jobs] = await Promise.all([
    repo.findFigures(
      accountId,
      ids((r) => r.figureId),
    ),
    repo.findLibraryItems(accountId, ids((r) => r.outputItemId).concat(ids((r) => r.backgroundItemId))),
    repo.findRenderJobs(ids((r) => (r.renderStep === "lipsync" ? r.lipsyncJobId : null))),
  ]);
  return {
    figures: new Map(figures.map((f) => [f.id, f])),
    items: new Map(items.map((i) => [i.id, i])),
    jobs: new Map(jobs.filter((j) => j.ownerAccountId === accountId).map((j) => [j.id, j])),
  };
}

async function findMine(actor: TVideoActor, id: string) {
  const row = await repo.findVideo(actor.id, id);
  if (!row) throw new AppError("not_found");
  return row;
}

async function viewOf(actor: TVideoActor, row: repo.TVideoRow) {
  return toVideoView(row, await lookupsFor(actor.id, [row]));
}

export async function listVideos(actor: TVideoActor): Promise<{ items: TVideoListItem[] }> {
  const rows = await repo.listVideos(actor.id);
  const lookups = await lookupsFor(actor.id, rows);
  return { items: rows.map((r) => toVideoListItem(r, lookups)) };
}

export async function getVideo(actor: TVideoActor, input: TVideoIdInput): Promise<TDigitalVideo> {
  return viewOf(actor, await findMine(actor, input.id));
}

export async function createVideo(actor: TVideoActor, input: TCreateVideoInput): Promise<TDigitalVideo> {
  return viewOf(actor, await repo.createVideo(actor.id, input.name));
}

/** The references a change names, each checked as the caller's (and usable). */
async function checkReferences(actor: TVideoActor, input: TUpdateVideoInput) {
  if (input.figureId) {
    const figure = await repo.findFigure(actor.id, input.figureId);
    if (!figure) throw new AppError("not_found");
    if (!isUsableFigure(figure)) throw new AppError("digital_figure_not_ready");
  }
  if (input.backgroundItemId) {
    const item = await repo.findLibraryItem(actor.id, input.backgroundItemId);
    if (!item?.fileKey) throw new AppError("not_found");
  }
  if (input.voice) await checkVoice(actor, input.voice);
}

async function checkVoice(actor: TVideoActor, voice: string) {
  const ownId = ownVoiceIdOf(voice);
  if (ownId !== null) {
    const own = await repo.findVoice(actor.id, ownId);
    if (!own) throw new AppError("not_found");
    if (own.state !== "ready" || !own.modelKey || !own.providerVoiceId) throw new AppError("digital_voice_not_ready");
    return;
  }
  const { voices } = await listAvailableVoices(actor);
  if (!voices.some((v) => v.id === voice)) throw new AppError("digital_voice_not_ready");
}

export async function updateVideo(actor: TVideoActor, input: TUpdateVideoInput): Promise<TDigitalVideo> {
  await findMine(actor, input.id);
  await checkReferences(actor, input);
  const { id, placement, ...fields } = input;
  const changes: repo.TVideoChanges = { ...fields, ...(placement ? { placement } : {}) };
  if (!(await repo.updateVideo(actor.id, id, changes))) throw new AppError("not_found");
  return getVideo(actor, { id });
}

/** Removes the video; its rendered mp4s stay in the library. A render still running stops at its next step. */
export async function removeVideo(actor: TVideoActor, input: TVideoIdInput): Promise<{ id: string }> {
  if (!(await repo.markVideoDeleted(actor.id, input.id, new Date()))) throw new AppError("not_found");
  return { id: input.id };
}

export async function quoteVideo(actor: TVideoActor, input: TVideoIdInput): Promise<TVideoQuote> {
  const plan = await planRender(actor.id, await findMine(actor, input.id));
  return {
    path: plan.path,
    chars: plan.chars,
    estimatedDurationMs: plan.estimatedDurationMs,
    speechMicro: plan.speechMicro,
    lipsyncMicro: plan.lipsyncMicro,
    // The composite runs on our own machines.
    compositeMicro: 0,
    totalMicro: plan.speechMicro + plan.lipsyncMicro,
    problems: plan.problems,
  };
}

const isRunning = (state: repo.TVideoRow["renderState"]) => state !== null && repo.RUNNING_STATES.includes(state);

export async function renderVideo(actor: TVideoActor, input: TVideoIdInput): Promise<TDigitalVideo> {
  const row = await findMine(actor, input.id);
  if (isRunning(row.renderState)) throw new AppError("repeat_action");
  const plan = await planRender(actor.id, row);
  if (plan.problems.length) throw refusalFor(plan.problems[0]);
  const needed = plan.speechMicro + plan.lipsyncMicro;
  const { available } = await getWallet(actor.id);
  if (available < needed) throw new AppError("balance_insufficient", { data: { needed, available } });
  // The speech job's id names this render: every later move of the row checks it.
  const speechJobId = `mj${randomToken(16)}`;
  if (!(await repo.startRender(actor.id, row.id, speechJobId, row, new Date()))) throw new AppError("repeat_action");
  try {
    await enqueueRender({ id: row.id, speechJobId }, "speech");
  } catch (err) {
    // Nothing was spoken or held yet: the render ends failed, and may be started again.
    await failRender({ id: row.id, speechJobId }, err);
    throw new AppError("digital_render_failed", { cause: err });
  }
  return getVideo(actor, input);
}

export async function videoProgress(actor: TVideoActor, input: TVideoProgressInput): Promise<{ items: TVideoProgress[] }> {
  const rows = await repo.findVideos(actor.id, [...new Set(input.ids)]);
  const lookups = await lookupsFor(actor.id, rows);
  return { items: rows.map((r) => toVideoProgress(r, lookups)) };
}
