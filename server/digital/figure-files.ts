// A figure's files may be shared: a bought figure uses its seller's filming video, greeting, loop
// and keyed still under the seller's keys. So a file is deleted only when no live figure names it
// any more, and a figure's loop and still are written again in place only when they are its own
// alone; otherwise they go under fresh keys in its owner's folder, and the keys it leaves are
// released (deleted if nothing else uses them).
import { derivedFileKey } from "../uploads/stored-file";
import { newFileKey } from "../uploads/file-store";
import { deleteFiles } from "../uploads/uploads.service";
import * as repo from "./figures.repository";

export type TPreparedKeys = { loop: string; poster: string };

const folderOf = (ownerAccountId: string) => `media/${ownerAccountId}/figures`;

/** Deletes those of `keys` that no live figure (other than `exceptId`, when given) still names. */
export async function releaseFigureFiles(keys: (string | null | undefined)[], exceptId: string | null = null) {
  const wanted = [...new Set(keys.filter((k): k is string => Boolean(k)))];
  const inUse = await repo.findFileKeysInUse(wanted, exceptId);
  await deleteFiles(wanted.filter((k) => !inUse.has(k)));
}

/**
 * Where the figure's loop and keyed still are written when it is prepared: where they are now (or
 * beside its filming video the first time) while that is the owner's folder, nobody else names
 * them and the figure is not offered for sale (a buyer might copy the keys while the files are
 * being written); else fresh keys in the owner's folder.
 */
export async function chooseOutputKeys(figure: repo.TFigureRow): Promise<TPreparedKeys> {
  const current =
    figure.loopFileKey && figure.posterFileKey
      ? { loop: figure.loopFileKey, poster: figure.posterFileKey }
      : { loop: derivedFileKey(figure.sourceFileKey, "loop", "mp4"), poster: derivedFileKey(figure.sourceFileKey, "keyed", "png") };
  const own = `${folderOf(figure.ownerAccountId)}/`;
  const inOwnFolder = current.loop.startsWith(own) && current.poster.startsWith(own);
  if (inOwnFolder && figure.salePriceMicro === null && (await repo.findFileKeysInUse([current.loop, current.poster], figure.id)).size === 0) {
    return current;
  }
  const base = newFileKey(folderOf(figure.ownerAccountId), "mp4");
  return { loop: derivedFileKey(base, "loop", "mp4"), poster: derivedFileKey(base, "keyed", "png") };
}
