// A workshop node's content from a file (txt, docx, pdf or xlsx, 10 MB): answered as a title and
// text for the editor to put in the node; nothing is stored until the draft is saved.
import express from "express";
import { requireAuth } from "../http/auth-context";
import { handle } from "../http/envelope-response";
import { readMultipart } from "../uploads/multipart";
import { TEXT_FILE_LIMITS } from "../uploads/upload-limits";
import { readNodeContent } from "./node-contents.service";

export function createWorkshopContentsRouter() {
  const router = express.Router();
  router.post(
    "/v1/workshop/contents",
    handle(async (req) => {
      await requireAuth(req);
      const { files } = await readMultipart(req, { files: { file: TEXT_FILE_LIMITS.maxBytes }, maxFields: 2 });
      return readNodeContent({ bytes: files.file?.bytes, filename: files.file?.filename ?? "" });
    }),
  );
  return router;
}
