// For the file work's tests: a file store in a temporary folder of the test file's own (set up before
// its tests, removed after), and ways to put an original in it and read back what was written.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "../../server/env";
import { dropSingleton } from "../../server/lib/singleton";
import { getFileStore } from "../../server/uploads/file-store";

export function useTempFileStore(account: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-file-store-test-"));
  beforeAll(() => {
    process.env.DATA_DIR = dataDir;
    resetEnvCache();
    dropSingleton("file-store");
  });
  afterAll(() => {
    dropSingleton("file-store");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const folder = path.join(dataDir, "files", "media", account);
  return {
    /** Stores `bytes` (or a local file's) as media/<account>/<name>, answering its key. */
    async put(name: string, bytes: Buffer | string, contentType: string) {
      const key = `media/${account}/${name}`;
      await getFileStore().put(key, typeof bytes === "string" ? fs.readFileSync(bytes) : bytes, contentType);
      return key;
    },
    /** Where a stored key's bytes are on disk. */
    pathOf: (key: string) => path.join(dataDir, "files", key),
    contentTypeOf: (key: string) => JSON.parse(fs.readFileSync(path.join(dataDir, "files", `${key}.meta.json`), "utf8")).contentType as string,
    /** The account folder's files (not the content-type files beside them), sorted. */
    listed: () =>
      fs.existsSync(folder)
        ? fs
            .readdirSync(folder)
            .filter((f) => !f.endsWith(".meta.json"))
            .sort()
        : [],
  };
}
