// What the page shows instead of an original: a library item's web-sized picture and thumbnail, a
// video's poster frame and phone-playable copy, a sound's normalised MP3, an app icon's 200x200 PNG.
// Made by the worker (the job "media.derive", through the file tools of file-work.ts) after every
// upload, and for generated results when they are stored. Until an item is derived it has no
// derivative URLs and the page shows the original; a failed derivation leaves it that way.
import type { Job } from "bullmq";
import { enqueueJob, type TJobPayload } from "../jobs/jobs";
import { logger } from "../lib/logger";
import { deleteFiles } from "../uploads/uploads.service";
import { derivedKeysOf, getFileWork, type TMediaMeta } from "./file-work";
import * as repo from "./media.repository";

type TFullMeta = Required<TMediaMeta>;
const NOTHING_DERIVED: TFullMeta = {
  durationMs: null,
  videoCodec: null,
  audioCodec: null,
  width: null,
  height: null,
  web: null,
  thumb: null,
  poster: null,
  play: null,
  norm: null,
};

/** One job per item: asking twice while the first waits is the same job. */
const deriveJobId = (itemId: string) => `media-derive-${itemId}`;

/**
 * Queues the item's derivatives. Call it after the item's row committed. A queue that cannot be
 * reached does not undo the upload: the item keeps showing its original.
 */
export async function requestMediaDerivation(itemId: string) {
  try {
    await enqueueJob("media.derive", { mediaItemId: itemId }, { jobId: deriveJobId(itemId) });
  } catch (err) {
    logger.warn({ err, itemId }, "could not queue a library item's derivatives: it shows its original");
  }
}

async function deriveFile(key: string, mime: string): Promise<TFullMeta> {
  const work = getFileWork();
  if (mime.startsWith("image/")) {
    const { width, height, web, thumb } = await work.deriveImage(key);
    return { ...NOTHING_DERIVED, width, height, web, thumb };
  }
  if (mime.startsWith("video/")) return { ...NOTHING_DERIVED, ...(await work.deriveVideo(key)) };
  if (mime.startsWith("audio/")) return { ...NOTHING_DERIVED, ...(await work.deriveAudio(key)) };
  throw new Error(`no derivatives are made for ${mime}`);
}

/**
 * Makes a library item's derivatives now, in this process (it must have the file tools: the
 * worker), and keeps their keys and the file's facts in the item's meta. The generation runner
 * calls it for each result it stores. Null when the item is gone, or was deleted while its files
 * were made (they are removed again).
 */
export async function deriveStoredMedia(itemId: string): Promise<TMediaMeta | null> {
  const item = await repo.findItemForDerivation(itemId);
  if (!item?.fileKey) return null;
  const meta = await deriveFile(item.fileKey, item.mime);
  if (!(await repo.saveMediaMeta(item.id, item.fileKey, { meta, width: meta.width, height: meta.height }))) {
    await deleteFiles(derivedKeysOf(meta));
    return null;
  }
  return meta;
}

/** The job handler (workers/main.ts). A file the tools cannot read fails the job with their reason. */
export async function handleMediaDerive(payload: TJobPayload<"media.derive">, _job?: Job): Promise<"done" | "gone"> {
  try {
    if ("mediaItemId" in payload) return (await deriveStoredMedia(payload.mediaItemId)) ? "done" : "gone";
    if (payload.purpose === "picture") await getFileWork().deriveImage(payload.fileKey);
    else await getFileWork().normaliseIcon(payload.fileKey);
    return "done";
  } catch (err) {
    logger.warn({ err, ...payload }, "making a stored file's derivatives failed: the original is shown");
    throw err;
  }
}
