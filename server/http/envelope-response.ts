import type { Request, Response } from "express";
import { mapError, okEnvelope } from "../errors/map-error";
import { getRequestLanguage } from "./request-context";

export function sendOk(res: Response, data: unknown) {
  res.json(okEnvelope(data));
}

export function sendError(req: Request, res: Response, err: unknown) {
  const mapped = mapError(err, getRequestLanguage(req));
  res.status(mapped.httpStatus).json(mapped.envelope);
}

/** Wraps an async REST handler so every refusal goes through the one mapping. */
export function handle(fn: (req: Request, res: Response) => Promise<unknown>) {
  return (req: Request, res: Response) => {
    fn(req, res).then(
      (data) => {
        if (!res.headersSent) sendOk(res, data);
      },
      (err) => sendError(req, res, err),
    );
  };
}
