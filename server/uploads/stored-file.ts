// What every file store is and shares (file-store.ts: a local folder; s3-file-store.ts: a bucket):
// the interface, a stored file as read, byte ranges, and which keys are valid.
import type { Readable } from "node:stream";

export type TByteRange = { start: number; end: number };
/**
 * A stored file as read: `size` is the whole file's; when a range was asked for, `range` says what
 * the stream holds (inclusive bytes), or "unsatisfiable" (the stream is then empty).
 */
export type TStoredFile = { stream: Readable; contentType: string; size: number; range?: TByteRange | "unsatisfiable" };

/** One "bytes=" range of an HTTP Range header against a file of `size` bytes; null: answer it all. */
export function resolveRange(header: string | undefined, size: number): TByteRange | "unsatisfiable" | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!m || (!m[1] && !m[2])) return null; // absent, several ranges, or another unit: the whole file
  if (!m[1]) {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  return start >= size || end < start ? "unsatisfiable" : { start, end };
}

export interface FileStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file (or the asked "bytes=" range of it, videos seek this way), or null when there is none. */
  get(key: string, range?: string): Promise<TStoredFile | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;
/** The local store keeps each file's content type beside it under this suffix: no key may end with it. */
export const META_SUFFIX = ".meta.json";

/** Keys are relative paths of plain segments: no "..", no absolute paths, no backslashes. */
export function isValidKey(key: string) {
  return key.length <= 300 && KEY_PATTERN.test(key) && !key.split("/").some((s) => s === "." || s === ".." || s.includes("..")) && !key.endsWith(META_SUFFIX);
}

/**
 * Where a file made from a stored one lives: beside it, as `<key without extension>.<variant>.<ext>`
 * (media/a/x.png → media/a/x.thumb.webp), so the folder that serves the original serves it too.
 */
export function derivedFileKey(key: string, variant: string, ext: string) {
  const base = key.replace(/\.[A-Za-z0-9]+$/, "");
  return `${base}.${variant}.${ext}`;
}
