// POST /api/v1/media: one picture or video into the library (multipart: `file`, optional `name`).
// The edition and the day's allowance are checked before the body is read, so a refused upload
// does not stream 100 MB first. The rest of the library is tRPC (media.router.ts).
import express from "express";
import { handle } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readMultipart } from "../uploads/multipart";
import { MEDIA_IMAGE_LIMITS, MEDIA_VIDEO_LIMITS } from "../uploads/upload-limits";
import { assertCanUpload, uploadMedia } from "./media.service";
import { ZUploadMediaFields } from "./media.schema";

export function createMediaRouter() {
  const router = express.Router();
  router.post(
    "/v1/media",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      await assertCanUpload(account);
      const { files, fields } = await readMultipart(req, {
        files: { file: Math.max(MEDIA_IMAGE_LIMITS.maxBytes, MEDIA_VIDEO_LIMITS.maxBytes) },
        maxFields: 5,
        maxFieldBytes: 1024,
      });
      return uploadMedia(account, files.file, ZUploadMediaFields.parse(fields));
    }),
  );
  return router;
}
