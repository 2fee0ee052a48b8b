// JSON request bodies for /api and the chat's event streams. body-parser's json did the same with
// more layers (media-type parsing, an iconv decoder, raw-body), a cold chat turn's largest step
// before its upstream request; and its refusals fell through to Express's HTML error page. Here a
// body that is not JSON, or too large, gets the one localized envelope, and nothing runs after it.
import { AsyncResource } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { AppError } from "../errors/app-error";
import { sendError } from "./envelope-response";

/** 1 MiB, as the API has always taken; files go through the upload routes. */
export const JSON_BODY_LIMIT = 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([\w-]+)"?/i;

/** What reading a request's body came to; `gone`: the client went away mid-body. */
export type TJsonBodyOutcome =
  { kind: "none" } | { kind: "body"; body: unknown } | { kind: "refused"; code: "malformed_body" | "body_too_large" } | { kind: "gone" };

type TBodyRequest = Request & { _body?: boolean; jsonBodyRead?: TJsonBodyOutcome };

/**
 * Reads an application/json body; `none` for a request with no JSON body. Bodies in another charset
 * than UTF-8, or declared larger than the limit, are refused before a byte is read. `done` runs in
 * the request's own async context, not the socket's that ends the body (as body-parser does), so
 * async-context tools such as tracers follow the request.
 */
export function readJsonBody(req: IncomingMessage, limitBytes: number, done: (outcome: TJsonBodyOutcome) => void) {
  const type = req.headers["content-type"];
  if (!type || !JSON_TYPE.test(type) || !hasBody(req)) return done({ kind: "none" });
  const charset = CHARSET.exec(type)?.[1]?.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") return done({ kind: "refused", code: "malformed_body" });
  if (Number(req.headers["content-length"]) > limitBytes) return done({ kind: "refused", code: "body_too_large" });

  // An AsyncResource rather than AsyncResource.bind: bind also defines a deprecated accessor pair on
  // every function it makes, which cost a cold chat turn more than the rest of reading its body.
  const context = new AsyncResource("zelin.json-body");
  const finish = (outcome: TJsonBodyOutcome) => context.runInAsyncScope(done, null, outcome);
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limitBytes) {
      stop();
      return finish({ kind: "refused", code: "body_too_large" });
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    stop();
    const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8");
    const parsed = parseStrict(text);
    finish(parsed === undefined ? { kind: "refused", code: "malformed_body" } : { kind: "body", body: parsed });
  };
  const onError = () => {
    stop();
    finish({ kind: "gone" });
  };
  const stop = () => {
    req.off("data", onData).off("end", onEnd).off("error", onError);
  };
  req.on("data", onData).on("end", onEnd).on("error", onError);
}

/**
 * Parses an application/json body into req.body (an object or an array); other requests pass
 * untouched. A body already read ahead of Express (`jsonBodyRead`, early-start.ts) is taken as read.
 */
export function jsonBody(limitBytes = JSON_BODY_LIMIT) {
  return (request: Request, res: Response, next: NextFunction) => {
    const req = request as TBodyRequest;
    if (req._body) return next();
    req.body ??= {};
    const settle = (outcome: TJsonBodyOutcome) => {
      // A client that went away mid-body: there is no one left to answer.
      if (outcome.kind === "gone") return;
      if (outcome.kind === "refused") return refuse(req, res, outcome.code);
      if (outcome.kind === "body") {
        req.body = outcome.body;
        req._body = true;
      }
      next();
    };
    const read = req.jsonBodyRead;
    if (read) {
      req.jsonBodyRead = undefined;
      return settle(read);
    }
    readJsonBody(req, limitBytes, settle);
  };
}

/** An object or array, as body-parser's strict mode; undefined for anything else. An empty body is {}. */
function parseStrict(text: string): unknown {
  const start = text.search(/\S/);
  if (start < 0) return {};
  if (text[start] !== "{" && text[start] !== "[") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function hasBody(req: IncomingMessage) {
  return req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");
}

/** The refusal leaves at once; a body not read to its end closes the connection after it. */
function refuse(req: Request, res: Response, code: "malformed_body" | "body_too_large") {
  if (!req.complete) res.setHeader("Connection", "close");
  sendError(req, res, new AppError(code));
}

/** body-parser's refusals (the urlencoded parser's) as the same envelopes; other errors go on. */
export function bodyErrors(err: unknown, req: Request, res: Response, next: NextFunction) {
  const type = (err as { type?: unknown })?.type;
  if (typeof type !== "string" || !/^(entity|encoding|charset|request)\./.test(type)) return next(err);
  if (res.headersSent) return next(err);
  refuse(req, res, type === "entity.too.large" ? "body_too_large" : "malformed_body");
}
