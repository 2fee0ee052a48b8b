// Our refusals in OpenAI's error shape, {error: {message, type, param, code}}, with the HTTP status
// an OpenAI client expects: 401 for a bad key, 429 (Retry-After) when rate limited, 402 when the
// entitlement refuses or the app's owner cannot pay its replies, 403 when the app may not be served.
import type { Response } from "express";
import { isAppError } from "../../errors/app-error";
import { codeForStatus, ERROR_CODES, type TErrorCode } from "../../errors/codes";
import { mapError } from "../../errors/map-error";

const ENTITLEMENT = new Set<string>([
  "times_exhausted",
  "trial_count_zero",
  "days_exhausted",
  "balance_insufficient",
  "trial_exhausted",
  "app_owner_balance_insufficient",
]);

export type TOpenAiError = { http: number; retryAfter: number | null; body: { error: { message: string; type: string; param: null; code: string } } };

function shape(code: TErrorCode, message: string, retryAfter: number | null): TOpenAiError {
  let http: number = ERROR_CODES[code].http;
  let type = http >= 500 ? "server_error" : "invalid_request_error";
  let openAiCode: string = code;
  if (code === "not_logged_in") {
    http = 401;
    openAiCode = "invalid_api_key";
  } else if (code === "rate_limited") {
    http = 429;
    type = "requests";
    openAiCode = "rate_limit_exceeded";
  } else if (ENTITLEMENT.has(code)) {
    http = 402;
    type = "insufficient_quota";
  } else if (code === "no_permission") {
    http = 403;
    type = "permission_error";
  } else if (code === "not_found") {
    http = 404;
    openAiCode = "model_not_found";
  } else if (http < 500) {
    http = http === 409 || http === 422 || http === 413 || http === 415 ? 400 : http;
  }
  return { http, retryAfter, body: { error: { message, type, param: null, code: openAiCode } } };
}

export function toOpenAiError(err: unknown, lng?: string): TOpenAiError {
  const mapped = mapError(err, lng);
  const data = isAppError(err) ? (err.data as { retry_after?: number } | null) : null;
  return shape(mapped.code, mapped.envelope.description, data?.retry_after ?? null);
}

/** A refusal the chat stream already translated into our envelope. */
export function envelopeToOpenAiError(envelope: { status: number; description: string }): TOpenAiError {
  return shape(codeForStatus(envelope.status) ?? "internal_error", envelope.description, null);
}

export function sendOpenAiError(res: Response, e: TOpenAiError) {
  if (e.retryAfter) res.setHeader("Retry-After", String(e.retryAfter));
  res.status(e.http).json(e.body);
}
