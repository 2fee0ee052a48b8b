// An expired or invalid licence makes the deployment read-only (docs/production.md#licences): every
// write is refused with 10002 whatever route it targets, pages still render so the overlay can
// explain why.
import type { NextFunction, Request, Response } from "express";
import { AppError } from "../errors/app-error";
import { getLicenceStatus } from "../platform/licence.service";
import { sendError } from "./envelope-response";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);
/** A payment provider's notification is money already received: it is credited even read-only. */
const PAYMENT_NOTIFY = /^\/api\/v1\/pay\/(wechat|alipay)\/notify\/?$/;

export function licenceWriteGuard(req: Request, res: Response, next: NextFunction) {
  if (READS.has(req.method)) return next();
  if (PAYMENT_NOTIFY.test(req.originalUrl.split("?")[0])) return next();
  const licence = getLicenceStatus();
  if (licence.status !== 10002) return next();
  sendError(
    req,
    res,
    new AppError("licence_expired", { data: { start_time: licence.start_time, end_time: licence.end_time, contact_phone: licence.contact_phone } }),
  );
}
