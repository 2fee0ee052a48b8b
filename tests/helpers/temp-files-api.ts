import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "../../server/env";
import { dropSingleton } from "../../server/lib/singleton";
import { startApiServer } from "./api-client";

/** An API server whose uploads go to a data directory of this test file's own, removed afterwards. */
export function useApiWithTempFiles(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let api: Awaited<ReturnType<typeof startApiServer>> | undefined;
  beforeAll(async () => {
    process.env.DATA_DIR = dataDir;
    resetEnvCache();
    dropSingleton("file-store");
    api = await startApiServer();
  });
  afterAll(async () => {
    await api?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    get base() {
      return api!.base;
    },
  };
}
