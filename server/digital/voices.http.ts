// POST /api/v1/digital/voices: a voice recording, made in the browser or chosen from the device
// (multipart: `file`, `name`, `sample_kind` personal | custom, `source` recorded | uploaded). The
// file is capped at VOICE_UPLOAD_MAX_BYTES while the body streams in. The rest is tRPC
// (voices.router.ts).
import express from "express";
import { handle } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readMultipart } from "../uploads/multipart";
import { VOICE_UPLOAD_MAX_BYTES } from "./digital.schema";
import { uploadDigitalVoice } from "./voices.service";
import { ZVoiceUploadFields } from "./voices.schema";

export function createVoicesRouter() {
  const router = express.Router();
  // VOICE_UPLOAD_PATH as mounted under /api, spelled out so the audit of upload routes can read it.
  router.post(
    "/v1/digital/voices",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files, fields } = await readMultipart(req, { files: { file: VOICE_UPLOAD_MAX_BYTES }, maxFields: 5, maxFieldBytes: 1024 });
      return uploadDigitalVoice(account, files.file, ZVoiceUploadFields.parse(fields));
    }),
  );
  return router;
}
