// A library picture handed to a generation screen in its query, the way the /warehouse picker
// answers (media_id and media_url): the screen starts with it chosen. The server checks the id is
// the caller's; the URL is only shown, and only when it is a path of this site or a web address.
import type { TLibraryPicture } from "./library-picture-field";

export function chosenPicture(params: URLSearchParams): TLibraryPicture | null {
  const id = params.get("media_id")?.trim();
  const url = params.get("media_url")?.trim() ?? "";
  if (!id || id.length > 64) return null;
  const shown = (url.startsWith("/") && !url.startsWith("//")) || /^https?:\/\//i.test(url);
  return { id, url: shown ? url : "" };
}
