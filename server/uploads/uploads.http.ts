// REST for the pictures of what an account builds (the account's own avatar is a setting:
// accounts/settings.http.ts).
import express from "express";
import { handle } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readMultipart } from "./multipart";
import { AVATAR_LIMITS } from "./upload-limits";
import { storePublicImage } from "./uploads.service";

export function createUploadsRouter() {
  const router = express.Router();
  // Pictures for things the account builds (an agent's avatar); the form keeps the returned URL.
  router.post(
    "/v1/uploads/image",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files } = await readMultipart(req, { files: { file: AVATAR_LIMITS.maxBytes }, maxFields: 5 });
      return storePublicImage(account.id, files.file?.bytes);
    }),
  );
  return router;
}
