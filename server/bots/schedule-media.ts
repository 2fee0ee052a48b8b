// The picture or video of its owner's multimedia library that a scheduled message sends (a
// rendered digital-human video, say): as the schedule editor shows it, and as a channel sends it.
// A video goes as its phone-playable MP4 rendition when the worker made one (the platforms play
// MP4 only), else as the file itself; its poster frame is the cover where a platform shows one.
import { readMediaMeta } from "../media/file-work";
import type { TTurnMedia } from "../turns/sink";
import { toPublicFileUrl } from "../uploads/uploads.service";
import type { TScheduleMedia } from "./bots.schema";
import { findLibraryItems, type TLibraryItemRow } from "./bots.repository";

const urlOf = (key: string | null | undefined) => (key ? toPublicFileUrl(key) : null);

export function toScheduleMedia(row: TLibraryItemRow): TScheduleMedia {
  const meta = readMediaMeta(row.meta);
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    url: urlOf(row.fileKey) ?? "",
    thumbnail_url: row.kind === "video" ? urlOf(meta.poster) : (urlOf(meta.thumb) ?? urlOf(row.fileKey)),
  };
}

export function toSendableMedia(row: TLibraryItemRow): TTurnMedia {
  const meta = readMediaMeta(row.meta);
  if (row.kind === "image") return { kind: "image", url: toPublicFileUrl(row.fileKey!), mime: row.mime, posterUrl: null };
  const play = meta.play ? { url: toPublicFileUrl(meta.play), mime: "video/mp4" } : { url: toPublicFileUrl(row.fileKey!), mime: row.mime };
  return { kind: "video", ...play, posterUrl: urlOf(meta.poster) };
}

/** The item of `ownerAccountId` as a channel sends it; null when it was deleted (or was never theirs). */
export async function loadScheduleMedia(ownerAccountId: string, itemId: string): Promise<TTurnMedia | null> {
  const [row] = await findLibraryItems(ownerAccountId, [itemId]);
  return row ? toSendableMedia(row) : null;
}
