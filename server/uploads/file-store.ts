// Where uploaded files live (DESIGN 3): one interface, a local folder by default, and an
// S3-compatible bucket when S3_BUCKET is set (s3-file-store.ts). Keys are ours (e.g. avatars/<id>/<random>.png),
// never a client's file name.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { getEnv } from "../env";
import { randomToken } from "../lib/secret-box";
import { singleton } from "../lib/singleton";
import { S3FileStore } from "./s3-file-store";

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
const META_SUFFIX = ".meta.json";

/** Keys are relative paths of plain segments: no "..", no absolute paths, no backslashes. */
export function isValidKey(key: string) {
  return key.length <= 300 && KEY_PATTERN.test(key) && !key.split("/").some((s) => s === "." || s === ".." || s.includes("..")) && !key.endsWith(META_SUFFIX);
}

function assertKey(key: string) {
  if (!isValidKey(key)) throw new Error(`invalid file key: ${JSON.stringify(key)}`);
}

/** Files under a folder, each beside a small JSON file that keeps its content type. */
export class LocalFileStore implements FileStore {
  constructor(readonly root: string) {}

  private pathOf(key: string) {
    assertKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`invalid file key: ${JSON.stringify(key)}`);
    return full;
  }

  async put(key: string, bytes: Buffer, contentType: string) {
    const full = this.pathOf(key);
    await fsp.mkdir(path.dirname(full), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const tmp = `${full}.${randomToken(6)}.tmp`;
    try {
      await fsp.writeFile(`${full}${META_SUFFIX}`, JSON.stringify({ contentType, size: bytes.length }));
      await fsp.writeFile(tmp, bytes);
      await fsp.rename(tmp, full);
    } catch (err) {
      await Promise.all([fsp.rm(tmp, { force: true }), fsp.rm(`${full}${META_SUFFIX}`, { force: true })]);
      throw err;
    }
  }

  async get(key: string, rangeHeader?: string): Promise<TStoredFile | null> {
    if (!isValidKey(key)) return null;
    const full = this.pathOf(key);
    const stat = await fsp.stat(full).catch(() => null);
    if (!stat?.isFile()) return null;
    const meta = await fsp
      .readFile(`${full}${META_SUFFIX}`, "utf8")
      .then((text) => JSON.parse(text) as { contentType?: string })
      .catch(() => ({ contentType: undefined }));
    const contentType = meta.contentType ?? "application/octet-stream";
    const range = resolveRange(rangeHeader, stat.size);
    if (range === "unsatisfiable") return { stream: Readable.from([]), contentType, size: stat.size, range };
    if (range) return { stream: fs.createReadStream(full, range), contentType, size: stat.size, range };
    return { stream: fs.createReadStream(full), contentType, size: stat.size };
  }

  async delete(key: string) {
    const full = this.pathOf(key);
    await Promise.all([fsp.rm(full, { force: true }), fsp.rm(`${full}${META_SUFFIX}`, { force: true })]);
  }
}

export function getFileStore(): FileStore {
  return singleton("file-store", (): FileStore => {
    const env = getEnv();
    if (!env.S3_BUCKET) return new LocalFileStore(path.join(env.DATA_DIR, "files"));
    return new S3FileStore({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    });
  });
}

/** A fresh key under a folder, e.g. newFileKey("avatars/<id>", "png"). */
export function newFileKey(folder: string, ext: string) {
  return `${folder}/${Date.now().toString(36)}${randomToken(9)}.${ext}`;
}
