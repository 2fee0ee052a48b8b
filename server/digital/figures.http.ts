// POST /api/v1/digital/figures: a new figure from its filming video (multipart: `file` the filming
// video, optional `greeting` a greeting video, optional `name`). Each file is capped at its own
// limit while the body streams in, so a refused upload never holds 100 MB. The rest is tRPC
// (figures.router.ts). POST /api/v1/digital/figures/:id/consent: the person's consent clip for
// an avatar training order.
import express from "express";
import { handle } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readMultipart } from "../uploads/multipart";
import { CONSENT_LIMITS, FILMING_LIMITS } from "./digital.schema";
import { uploadConsent, uploadFigure } from "./figures.service";
import { ZUploadFigureFields } from "./figures.schema";

export function createFiguresRouter() {
  const router = express.Router();
  router.post(
    "/v1/digital/figures",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files, fields } = await readMultipart(req, {
        files: { file: FILMING_LIMITS.figure.maxBytes, greeting: FILMING_LIMITS.greeting.maxBytes },
        maxFields: 5,
        maxFieldBytes: 1024,
      });
      return uploadFigure(account, files, ZUploadFigureFields.parse(fields));
    }),
  );
  // The person's consent clip for an avatar training order (multipart `file`).
  router.post(
    "/v1/digital/figures/:id/consent",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files } = await readMultipart(req, { files: { file: CONSENT_LIMITS.maxBytes }, maxFields: 0, maxFieldBytes: 0 });
      return uploadConsent(account, String(req.params.id), files);
    }),
  );
  return router;
}
