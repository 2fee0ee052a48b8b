// The pictures and videos of an answer, as chat platforms take them: each platform wants the bytes
// uploaded to it (a link would only show as text), so a channel reads the file from our own file
// store by its /files/<key> address (or the same address under PUBLIC_URL). Only public keys of the
// store are read, the ones /files/ serves to anyone, and no other address is ever fetched: what a
// bot sends comes from this site. An item a channel cannot send as a picture or a video (too big for
// the platform, a type it refuses, a file that is not ours) goes as a link line instead.
import path from "node:path";
import { getEnv } from "../../server/env";
import { getFileStore } from "../../server/uploads/file-store";
import { isValidKey } from "../../server/uploads/stored-file";
import { isPublicKey, PUBLIC_FILES_PATH } from "../../server/uploads/uploads.service";
import type { TTurnMedia } from "../../server/turns/sink";

export type TReplyFile = { kind: TTurnMedia["kind"]; bytes: Buffer; mime: string; filename: string };

/** The store's key of one of our public files, from its address; null for any other address. */
export function storedKeyOf(url: string): string | null {
  const base = getEnv().PUBLIC_URL?.replace(/\/+$/, "");
  const local = base && url.startsWith(`${base}/`) ? url.slice(base.length) : url;
  if (!local.startsWith(PUBLIC_FILES_PATH)) return null;
  const key = local.slice(PUBLIC_FILES_PATH.length);
  return isValidKey(key) && isPublicKey(key) ? key : null;
}

/**
 * The bytes of `item` when it is one of our files of at most `maxBytes` (the platform's limit) and
 * of a type in `mimes`; null when the channel should send its link instead.
 */
export async function readReplyFile(item: TTurnMedia, opts: { maxBytes: number; mimes: readonly string[] }): Promise<TReplyFile | null> {
  const key = storedKeyOf(item.url);
  if (!key) return null;
  const file = await getFileStore().get(key);
  if (!file) return null;
  const mime = (item.mime || file.contentType).toLowerCase();
  if (file.size > opts.maxBytes || !opts.mimes.includes(mime)) {
    file.stream.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  return { kind: item.kind, bytes: Buffer.concat(chunks), mime, filename: path.posix.basename(key) };
}

/** One item as a markdown link line (numbered as in the answer): what a channel sends when it cannot send the item itself. */
export function mediaLink(item: TTurnMedia, index: number): string {
  return `[${item.kind === "video" ? "▶" : "🖼"} ${index + 1}](${item.url})`;
}
