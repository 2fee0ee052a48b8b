// A video's row as the editor and the list see it: URLs for its files (never keys), its figure and
// background, and the render's progress. A render waiting on its lip-sync shows the lip-sync job's
// own progress inside its share of the bar (20-70).
import { readMediaMeta } from "../media/file-work";
import { toPublicFileUrl } from "../uploads/uploads.service";
import { DEFAULT_PLACEMENT, ZPlacement, type TOrientation } from "./digital.schema";
import { isUsableFigure } from "./render-plan";
import type * as repo from "./videos.repository";
import { RENDER_STEPS, type TDigitalVideo, type TRenderStep, type TVideoListItem, type TVideoOutput, type TVideoProgress } from "./videos.schema";

/** What the views of some videos need besides their rows, read once for all of them. */
export type TVideoLookups = {
  figures: Map<string, repo.TVideoFigureRow>;
  items: Map<string, repo.TVideoItemRow>;
  jobs: Map<string, repo.TRenderJobRow>;
};

const LIPSYNC_SHARE = { from: 20, to: 70 } as const;
const orientationOf = (value: string): TOrientation => (value === "horizontal" ? "horizontal" : "vertical");
const stepOf = (value: string | null): TRenderStep | null => ((RENDER_STEPS as readonly string[]).includes(value ?? "") ? (value as TRenderStep) : null);
const urlOf = (key: string | null | undefined) => (key ? toPublicFileUrl(key) : null);

function progressOf(row: repo.TVideoRow, jobs: TVideoLookups["jobs"]) {
  const job = row.lipsyncJobId ? jobs.get(row.lipsyncJobId) : undefined;
  if (row.renderStep !== "lipsync" || !job || row.renderState === "done" || row.renderState === "failed") return row.progress;
  return Math.max(row.progress, LIPSYNC_SHARE.from + Math.round(((LIPSYNC_SHARE.to - LIPSYNC_SHARE.from) * job.progress) / 100));
}

function outputOf(row: repo.TVideoRow, items: TVideoLookups["items"]): TVideoOutput | null {
  const item = row.outputItemId ? items.get(row.outputItemId) : undefined;
  if (!item?.fileKey) return null;
  const meta = readMediaMeta(item.meta);
  return { itemId: item.id, url: toPublicFileUrl(item.fileKey), posterUrl: urlOf(meta.poster), durationMs: meta.durationMs ?? null };
}

export function toVideoProgress(row: repo.TVideoRow, l: TVideoLookups): TVideoProgress {
  return {
    id: row.id,
    state: row.renderState,
    step: stepOf(row.renderStep),
    progress: progressOf(row, l.jobs),
    output: outputOf(row, l.items),
    errorCode: row.renderState === "failed" || row.renderState === "failed_review" ? row.errorCode : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toVideoListItem(row: repo.TVideoRow, l: TVideoLookups): TVideoListItem {
  const figure = row.figureId ? l.figures.get(row.figureId) : undefined;
  return {
    ...toVideoProgress(row, l),
    name: row.name,
    orientation: orientationOf(row.orientation),
    figure: figure ? { id: figure.id, name: figure.name, posterUrl: urlOf(figure.posterFileKey) } : null,
  };
}

function backgroundOf(row: repo.TVideoRow, items: TVideoLookups["items"]): TDigitalVideo["background"] {
  const item = row.backgroundItemId ? items.get(row.backgroundItemId) : undefined;
  if (!item?.fileKey) return null;
  const meta = readMediaMeta(item.meta);
  return { id: item.id, name: item.name, kind: item.kind, url: toPublicFileUrl(item.fileKey), thumbUrl: urlOf(meta.thumb ?? meta.poster) };
}

export function toVideoView(row: repo.TVideoRow, l: TVideoLookups): TDigitalVideo {
  const figure = row.figureId ? l.figures.get(row.figureId) : undefined;
  const placement = ZPlacement.safeParse(row.placement);
  return {
    ...toVideoProgress(row, l),
    name: row.name,
    orientation: orientationOf(row.orientation),
    figure: figure
      ? {
          id: figure.id,
          name: figure.name,
          posterUrl: urlOf(figure.posterFileKey),
          orientation: orientationOf(figure.orientation),
          trained: figure.kind === "trained" && Boolean(figure.providerAvatarId),
          ready: isUsableFigure(figure),
        }
      : null,
    placement: placement.success ? placement.data : DEFAULT_PLACEMENT,
    background: backgroundOf(row, l.items),
    backgroundColor: row.backgroundColor,
    voice: row.voice,
    script: row.script,
    createdAt: row.createdAt.toISOString(),
    renderedAt: row.renderedAt?.toISOString() ?? null,
  };
}
