// REST for developer certification: the applicant's own application, the platform
// administrators' review, and the application's private files.
import express from "express";
import { AppError } from "../errors/app-error";
import { handle, sendError } from "../http/envelope-response";
import { requireAuth } from "../http/auth-context";
import { readMultipart } from "../uploads/multipart";
import { sendStoredFile, readKey } from "../uploads/files.http";
import { CERTIFICATE_FILE_MAX_BYTES, CERTIFICATION_IMAGE_LIMITS } from "../uploads/upload-limits";
import { CERTIFICATE_FIELD, CERTIFICATION_IMAGE_FIELDS, ZListCertificationsInput, ZRejectCertificationInput } from "./certification.schema";
import {
  approveCertification,
  getCertificationFile,
  getOwnCertification,
  listCertificationsForReview,
  rejectCertification,
  submitCertification,
} from "./certification.service";

const UPLOAD_LIMITS = {
  files: {
    ...Object.fromEntries(CERTIFICATION_IMAGE_FIELDS.map((f) => [f, CERTIFICATION_IMAGE_LIMITS.maxBytes])),
    [CERTIFICATE_FIELD]: CERTIFICATE_FILE_MAX_BYTES,
  },
  maxFields: 10,
};

export function createCertificationRouter() {
  const router = express.Router();

  router.get(
    "/v1/account/certification",
    handle(async (req) => getOwnCertification((await requireAuth(req)).account.id)),
  );

  router.post(
    "/v1/account/certification",
    handle(async (req) => {
      const { account } = await requireAuth(req);
      return submitCertification(account, await readMultipart(req, UPLOAD_LIMITS));
    }),
  );

  router.get(
    "/v1/admin/certifications",
    handle(async (req) => listCertificationsForReview((await requireAuth(req)).account, ZListCertificationsInput.parse(req.query))),
  );
  router.post(
    "/v1/admin/certifications/:id/approve",
    handle(async (req) => approveCertification((await requireAuth(req)).account, req.params.id)),
  );
  router.post(
    "/v1/admin/certifications/:id/reject",
    handle(async (req) => rejectCertification((await requireAuth(req)).account, req.params.id, ZRejectCertificationInput.parse(req.body ?? {}))),
  );

  router.get("/v1/files/certifications/*", async (req, res) => {
    try {
      const { account } = await requireAuth(req);
      const key = readKey(req.path.slice("/v1/files/".length));
      if (!key) throw new AppError("not_found");
      const file = await getCertificationFile(account, key);
      sendStoredFile(res, file, "private, max-age=3600");
    } catch (err) {
      sendError(req, res, err);
    }
  });

  return router;
}
