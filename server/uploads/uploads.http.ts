// REST for uploads that belong to the account itself (SPEC 2 /setting: the avatar) and the
// pictures of what it builds.
import express from "express";
import { handle } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readMultipart } from "./multipart";
import { AVATAR_LIMITS } from "./upload-limits";
import { setAvatar, storePublicImage } from "./uploads.service";

export function createUploadsRouter() {
  const router = express.Router();
  router.post(
    "/v1/account/avatar",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { files } = await readMultipart(req, { files: { file: AVATAR_LIMITS.maxBytes }, maxFields: 5 });
      return setAvatar(account.id, files.file?.bytes);
    }),
  );
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
