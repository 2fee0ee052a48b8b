// A library picture handed to the app editor in its query (media_id, media_url, and media_slot for
// which picture field), the way the /warehouse picker and the generation gallery answer. Only one of
// the account's own library files is taken; a video is refused, since no app type has a video field.
import { isOwnMediaPath } from "../../../../server/apps/apps.schema";

/** The picture fields a chosen picture may go to; the background unless the icon was asked for. */
export const MEDIA_SLOTS = { background: "background_url", icon: "icon_url" } as const;
export type TMediaSlot = keyof typeof MEDIA_SLOTS;

export type TChosenMedia = { slot: TMediaSlot; url: string } | { refused: "video" | "not_own" };

const VIDEO_EXTENSIONS = ["mp4", "mov", "webm"];
const PICTURE_EXTENSIONS = ["png", "jpg", "jpeg", "webp"];

/** Null when the query names no media; otherwise the picture to set, or why it is not taken. */
export function readChosenMedia(params: URLSearchParams, accountId: string): TChosenMedia | null {
  const id = params.get("media_id")?.trim();
  const url = params.get("media_url")?.trim() ?? "";
  if (!id && !url) return null;
  if (!id || id.length > 64 || !isOwnMediaPath(url, accountId)) return { refused: "not_own" };
  const ext = url.slice(url.lastIndexOf(".") + 1).toLowerCase();
  if (VIDEO_EXTENSIONS.includes(ext)) return { refused: "video" };
  if (!PICTURE_EXTENSIONS.includes(ext)) return { refused: "not_own" };
  return { slot: params.get("media_slot") === "icon" ? "icon" : "background", url };
}
