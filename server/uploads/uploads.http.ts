// REST for the pictures of what an account builds (the account's own avatar is a setting:
// accounts/settings.http.ts).
import express from "express";
import { z } from "zod";
import { handle } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readMultipart } from "./multipart";
import { AVATAR_LIMITS, ICON_LIMITS } from "./upload-limits";
import { storePublicIcon, storePublicImage } from "./uploads.service";

/** `?purpose=icon`: an app's icon, with its own smaller minimum and a 200x200 copy made by the worker. */
const ZImageUploadQuery = z.object({ purpose: z.enum(["icon"]).optional() });

export function createUploadsRouter() {
  const router = express.Router();
  // Pictures for things the account builds (an agent's avatar); the form keeps the returned URL.
  router.post(
    "/v1/uploads/image",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { purpose } = ZImageUploadQuery.parse(req.query);
      const maxBytes = purpose === "icon" ? ICON_LIMITS.maxBytes : AVATAR_LIMITS.maxBytes;
      const { files } = await readMultipart(req, { files: { file: maxBytes }, maxFields: 5 });
      return purpose === "icon" ? storePublicIcon(account.id, files.file?.bytes) : storePublicImage(account.id, files.file?.bytes);
    }),
  );
  return router;
}
