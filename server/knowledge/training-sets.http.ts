// REST for what moves as files: smart-set documents (multipart, up to 10 per form), Q&A import
// (multipart, a row-by-row report) and export (a download). The {status, description, data}
// envelope otherwise.
import express from "express";
import { handle, sendError } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { getRequestLanguage } from "../http/request-context";
import { readMultipart } from "../uploads/multipart";
import { TRAINING_FILE_LIMITS } from "../uploads/upload-limits";
import { exportQaItems, importQaItems, uploadDocuments } from "./training-sets.files.service";
import { DOCUMENTS_PER_UPLOAD, QA_IMPORT_MAX_BYTES, ZQaExportFormat, ZTrainingSetId } from "./training-sets.schema";

/** file0 … file9, and one more so that an eleventh file is refused rather than dropped. */
const DOCUMENT_FIELDS = Object.fromEntries(Array.from({ length: DOCUMENTS_PER_UPLOAD + 1 }, (_, i) => [`file${i}`, TRAINING_FILE_LIMITS.maxBytes]));

export function createTrainingSetsRouter() {
  const router = express.Router();
  router.post(
    "/v1/training/sets/:id/documents",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files } = await readMultipart(req, { files: DOCUMENT_FIELDS, maxFields: 5 });
      const list = Object.keys(DOCUMENT_FIELDS).flatMap((f) => (files[f] ? [files[f]] : []));
      return uploadDocuments(account, ZTrainingSetId.parse({ id: req.params.id }), list);
    }),
  );
  router.post(
    "/v1/training/sets/:id/qa/import",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files } = await readMultipart(req, { files: { file: QA_IMPORT_MAX_BYTES }, maxFields: 5 });
      return importQaItems(account, ZTrainingSetId.parse({ id: req.params.id }), files.file?.bytes);
    }),
  );
  router.get("/v1/training/sets/:id/qa/export", async (req, res) => {
    try {
      const { account } = await requireAuth(req);
      const file = await exportQaItems(
        account,
        ZTrainingSetId.parse({ id: req.params.id }),
        ZQaExportFormat.parse(req.query.format ?? "xlsx"),
        getRequestLanguage(req),
      );
      const ascii = file.filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
      res.setHeader("Content-Type", file.mime);
      res.setHeader("Content-Disposition", `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.end(file.bytes);
    } catch (err) {
      sendError(req, res, err);
    }
  });
  return router;
}
