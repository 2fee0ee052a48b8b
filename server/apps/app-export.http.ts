// GET /api/v1/app/exports/:id/download: a finished export's xlsx, for the account that asked for it
// and still owns the app; anyone else gets not_found (the envelope), never the file.
import express from "express";
import { sendError } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readAppExportFile } from "./app-export.service";

export function createAppExportRouter() {
  const router = express.Router();
  router.get("/v1/app/exports/:id/download", async (req, res) => {
    try {
      const { account } = await requireAuth(req);
      const file = await readAppExportFile(account, req.params.id);
      const ascii = file.filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
      res.setHeader("Content-Type", file.mime);
      res.setHeader("Content-Length", String(file.size));
      res.setHeader("Content-Disposition", `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("X-Content-Type-Options", "nosniff");
      file.stream.on("error", (err) => res.destroy(err));
      file.stream.pipe(res);
    } catch (err) {
      sendError(req, res, err);
    }
  });
  return router;
}
