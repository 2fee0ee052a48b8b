// Where uploaded files live: one interface (stored-file.ts), a local folder by default, and an
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
import { isValidKey, META_SUFFIX, resolveRange, type FileStore, type TStoredFile } from "./stored-file";

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
