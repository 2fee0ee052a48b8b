// GET /files/<key>: the public files (avatars). Served with the type they were stored under and
// nosniff, so the browser never reinterprets them; keys are unique per upload, so they cache long.
// Private files (certification documents) are not served here: their areas check access first.
import express, { type Request, type Response } from "express";
import { logger } from "../lib/logger";
import { getFileStore, type TStoredFile } from "./file-store";
import { isPublicKey } from "./uploads.service";

/** Streams a stored file with the headers every file answer carries. */
export function sendStoredFile(res: Response, file: TStoredFile, cacheControl: string) {
  res.setHeader("Content-Type", file.contentType);
  res.setHeader("Content-Length", String(file.size));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", cacheControl);
  res.setHeader("Content-Disposition", "inline");
  file.stream.on("error", (err) => {
    logger.warn({ err }, "stored file could not be read");
    res.destroy(err);
  });
  file.stream.pipe(res);
}

/** The key from a request path, or null when the path is not even well-formed. */
export function readKey(pathname: string) {
  try {
    return decodeURIComponent(pathname.replace(/^\/+/, ""));
  } catch {
    return null;
  }
}

export function createFilesRouter() {
  const router = express.Router();
  router.get("/*", async (req: Request, res: Response) => {
    const key = readKey(req.path);
    const file = key && isPublicKey(key) ? await getFileStore().get(key).catch(() => null) : null;
    if (!file) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    sendStoredFile(res, file, "public, max-age=31536000, immutable");
  });
  return router;
}
