// Where uploaded files live (DESIGN 3): one interface, a local folder by default, and an
// S3-compatible bucket when S3_BUCKET is set (s3-file-store.ts). Keys are ours (e.g. avatars/<id>/<random>.png),
// never a client's file name.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { getEnv } from "../env";
import { randomToken } from "../lib/secret-box";
import { singleton } from "../lib/singleton";
import { S3FileStore } from "./s3-file-store";

export type TStoredFile = { stream: Readable; contentType: string; size: number };

export interface FileStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none under this key. */
  get(key: string): Promise<TStoredFile | null>;
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

  async get(key: string): Promise<TStoredFile | null> {
    if (!isValidKey(key)) return null;
    const full = this.pathOf(key);
    const stat = await fsp.stat(full).catch(() => null);
    if (!stat?.isFile()) return null;
    const meta = await fsp
      .readFile(`${full}${META_SUFFIX}`, "utf8")
      .then((text) => JSON.parse(text) as { contentType?: string })
      .catch(() => ({ contentType: undefined }));
    return { stream: fs.createReadStream(full), contentType: meta.contentType ?? "application/octet-stream", size: stat.size };
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
