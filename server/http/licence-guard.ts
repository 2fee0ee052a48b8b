// An expired or invalid licence makes the deployment read-only (DESIGN 5): every write is refused
// with 10002 whatever route it targets, pages still render so the overlay can explain why.
import type { NextFunction, Request, Response } from "express";
import { AppError } from "../errors/app-error";
import { getLicenceStatus } from "../platform/licence.service";
import { sendError } from "./envelope-response";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export function licenceWriteGuard(req: Request, res: Response, next: NextFunction) {
  if (READS.has(req.method)) return next();
  const licence = getLicenceStatus();
  if (licence.status !== 10002) return next();
  sendError(req, res, new AppError("licence_expired", { data: { start_time: licence.start_time, end_time: licence.end_time, contact_phone: licence.contact_phone } }));
}
