// GET /files/<key>: the public files (avatars, pictures, the multimedia library). Served with the
// type they were stored under and nosniff, so the browser never reinterprets them; keys are unique
// per upload, so they cache long. A single "bytes=" Range is answered 206 (videos seek, and Safari
// plays no video without it).
// Private files (certification documents) are not served here: their areas check access first.
import express, { type Request, type Response } from "express";
import { logger } from "../lib/logger";
import { getFileStore } from "./file-store";
import type { TStoredFile } from "./stored-file";
import { isPublicKey, readIconOriginal } from "./uploads.service";

/** Streams a stored file with the headers every file answer carries. */
export function sendStoredFile(res: Response, file: TStoredFile, cacheControl: string) {
  res.setHeader("Accept-Ranges", "bytes");
  if (file.range === "unsatisfiable") {
    file.stream.destroy();
    res.status(416).setHeader("Content-Range", `bytes */${file.size}`);
    res.end();
    return;
  }
  res.setHeader("Content-Type", file.contentType);
  if (file.range) {
    res.status(206).setHeader("Content-Range", `bytes ${file.range.start}-${file.range.end}/${file.size}`);
    res.setHeader("Content-Length", String(file.range.end - file.range.start + 1));
  } else res.setHeader("Content-Length", String(file.size));
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
    const file =
      key && isPublicKey(key)
        ? await getFileStore()
            .get(key, req.headers.range)
            .catch(() => null)
        : null;
    if (file) {
      sendStoredFile(res, file, "public, max-age=31536000, immutable");
      return;
    }
    // An icon whose 200x200 copy the worker has not made yet: its original, kept by nobody, since
    // the copy will answer this address soon.
    const original = key ? await readIconOriginal(key, req.headers.range) : null;
    if (original) sendStoredFile(res, original, "no-store");
    else res.status(404).type("text/plain").send("Not found");
  });
  return router;
}
