// The file tools' side of the file store: reading an original (whole, for a picture; into a
// temporary folder of its own, for ffmpeg, removed afterwards whatever happens) and writing
// derivatives all or none, so a step that fails leaves nothing behind for the page to show half of.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getFileStore } from "../../server/uploads/file-store";
import { MediaToolError } from "./run-tool";

/** More than any picture the platform accepts (20 MB) or a provider makes; read whole into memory. */
const PICTURE_MAX_BYTES = 64 * 1024 * 1024;

export type TOutput = { key: string; bytes: Buffer; contentType: string };

async function openStored(key: string) {
  const file = await getFileStore().get(key);
  if (!file) throw new MediaToolError(`the stored file ${key} is not there`);
  return file;
}

export async function readPicture(key: string) {
  const file = await openStored(key);
  if (file.size > PICTURE_MAX_BYTES) {
    file.stream.destroy();
    throw new MediaToolError(`the stored file ${key} is too large for a picture (${file.size} bytes)`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Copies the stored file into `dir` as `<name><its extension>`, and answers the copy's path. */
export async function copyStored(key: string, dir: string, name: string) {
  const file = path.join(dir, `${name}${path.extname(key)}`);
  await pipeline((await openStored(key)).stream, fs.createWriteStream(file));
  return file;
}

/** Runs `work` in a fresh temporary folder, and removes the folder whatever happens. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "zelin-media-"));
  try {
    return await work(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** Runs `work` in a fresh temporary folder holding the stored file. */
export function withLocalCopy<T>(key: string, work: (input: string, dir: string) => Promise<T>): Promise<T> {
  return withTempDir(async (dir) => work(await copyStored(key, dir, "original"), dir));
}

/** Writes every output, or (when one write fails) takes back those already written. */
export async function putAll(outputs: TOutput[]) {
  const store = getFileStore();
  const written: string[] = [];
  try {
    for (const out of outputs) {
      await store.put(out.key, out.bytes, out.contentType);
      written.push(out.key);
    }
  } catch (err) {
    await Promise.all(written.map((key) => store.delete(key).catch(() => undefined)));
    throw err;
  }
}
