// The render's last step: the figure (its lip-synced clip, else its filmed loop, both still on their
// green) keyed over the background with the speech, by the worker's ffmpeg, into
// media/<owner>/digital/<video>-<render>.mp4; then that mp4 as a generated video of the owner's
// library (counted against no day's uploads) with its derivatives queued, and the video done.
// The mp4's key is fixed for the render, so a resumed composite finds the library item it already
// made instead of making another; a new render writes a new key, and the old item stays.
import type { TCompositeSpec } from "../media/file-work";
import { getFileWork } from "../media/file-work";
import { requestMediaDerivation } from "../media/media-derive.service";
import { MEDIA_NAME_MAX } from "../media/media.schema";
import { AppError } from "../errors/app-error";
import { getFileStore } from "../uploads/file-store";
import { DEFAULT_PLACEMENT, ZPlacement } from "./digital.schema";
import * as repo from "./videos.repository";

type TRenderRow = repo.TVideoRow & { speechJobId: string; renderStartedAt: Date };

export const renderOutputKey = (row: Pick<TRenderRow, "id" | "ownerAccountId" | "renderStartedAt">) =>
  `media/${row.ownerAccountId}/digital/${row.id}-${row.renderStartedAt.getTime().toString(36)}.mp4`;

/** The background as the composite takes it: a library picture or video of the owner's, else the colour. */
async function backgroundOf(row: TRenderRow): Promise<TCompositeSpec["background"]> {
  const item = row.backgroundItemId ? await repo.findLibraryItem(row.ownerAccountId, row.backgroundItemId) : null;
  if (item?.fileKey) return { kind: item.kind, key: item.fileKey };
  return { kind: "color", color: row.backgroundColor };
}

async function specOf(row: TRenderRow, files: { audioKey: string; clipKey: string | null }): Promise<TCompositeSpec> {
  const figure = row.figureId ? await repo.findFigure(row.ownerAccountId, row.figureId) : null;
  const clip = files.clipKey ?? figure?.loopFileKey;
  if (!figure || !clip) throw new AppError("digital_figure_not_ready");
  const placement = ZPlacement.safeParse(row.placement);
  return {
    outputKey: renderOutputKey(row),
    orientation: row.orientation === "horizontal" ? "horizontal" : "vertical",
    height: 720,
    background: await backgroundOf(row),
    figure: { key: clip, color: figure.keyColor, similarity: figure.keySimilarity, blend: figure.keyBlend },
    placement: placement.success ? placement.data : DEFAULT_PLACEMENT,
    audioKey: files.audioKey,
  };
}

async function sizeOf(key: string) {
  const file = await getFileStore().get(key);
  if (!file) throw new AppError("digital_render_failed", { message: "the composite wrote no file" });
  file.stream.destroy?.();
  return file.size;
}

function itemName(videoName: string) {
  const chars = Array.from(videoName.trim() || "video");
  return `${chars.slice(0, MEDIA_NAME_MAX - 4).join("")}.mp4`;
}

/** Composites (unless this render's mp4 is already a library item) and ends the render done. False when it ended meanwhile. */
export async function composeVideo(row: TRenderRow, files: { audioKey: string; clipKey: string | null }): Promise<boolean> {
  const spec = await specOf(row, files);
  let item = await repo.findItemByFileKey(row.ownerAccountId, spec.outputKey);
  let made = false;
  if (!item) {
    const work = await getFileWork().composite(spec);
    const size = await sizeOf(work.key);
    item = await repo.createRenderedItem({
      ownerAccountId: row.ownerAccountId,
      name: itemName(row.name),
      fileKey: work.key,
      size,
      width: work.width,
      height: work.height,
      durationMs: work.durationMs,
      createdAt: new Date(),
    });
    made = true;
  }
  const done = await repo.moveRender(
    row.id,
    row.speechJobId,
    { renderState: "done", progress: 100, outputItemId: item.id, renderedAt: new Date() },
    "composite",
  );
  // Posters and the phone-playable check, as for any library video (a video removed meanwhile keeps its mp4 there too).
  if (made) await requestMediaDerivation(item.id);
  return done;
}
