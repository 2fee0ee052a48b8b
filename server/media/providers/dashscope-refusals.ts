// How DashScope says no, in our words. A refused call answers an HTTP status with a JSON body
// {request_id, code, message} (the OpenAI-compatible paths nest the same under `error`); a task
// that failed later carries the same code and message in its output. The codes, per DashScope's
// error-code reference: InvalidParameter (400) and its InvalidFile/InvalidImage cousins are bad
// parameters; DataInspectionFailed, data_inspection_failed and IPInfringementSuspect are its
// content review; Arrearage (400, "make sure your account is in good standing") is an overdue
// account; InvalidApiKey (401) and AccessDenied(.Unpurchased, Model.AccessDenied ...) (403) are the
// key or the model's subscription; Throttling, Throttling.RateQuota and Throttling.AllocationQuota
// (429) are rate limits; InternalError(.Algo, .Timeout ...) and 5xx are DashScope's own faults.
import { ProviderError, type TProviderFailure } from "./provider";

export type TDashscopeRefusal = { status: number; code: string; message: string };

const CONTENT_CODE = /datainspection|data_inspection|ipinfringement/i;
/** Its review names which side it refused: "Input data may contain inappropriate content." */
const INPUT_SIDE = /\binput\b/i;
/** What DashScope answers an async-only endpoint called without X-DashScope-Async: our fault, not the key's. */
const SYNC_REFUSAL = /does not support synchronous/i;

/** A refused answer's code and message, wherever this endpoint keeps them. */
export function readRefusal(status: number, answer: unknown, text: string): TDashscopeRefusal {
  const body = answer && typeof answer === "object" ? (answer as Record<string, unknown>) : {};
  const nested = body.error && typeof body.error === "object" ? (body.error as Record<string, unknown>) : {};
  const code = typeof body.code === "string" ? body.code : typeof nested.code === "string" ? nested.code : "";
  const message = typeof body.message === "string" ? body.message : typeof nested.message === "string" ? nested.message : text.slice(0, 200);
  return { status, code, message };
}

/**
 * The failure a DashScope code means. `side` is where it was said: a content refusal at submit is
 * always about what we sent; in a finished task it is about the result unless its message names
 * the input (a picture is reviewed after the task was accepted).
 */
export function classifyRefusal(refusal: Omit<TDashscopeRefusal, "status"> & { status?: number }, side: "call" | "task"): TProviderFailure {
  const { code, message } = refusal;
  const status = refusal.status ?? 0;
  if (CONTENT_CODE.test(code)) return side === "call" || INPUT_SIDE.test(message) ? "content_input" : "content_output";
  if (code === "Arrearage" || code === "AllocationQuota.FreeTierOnly") return "balance";
  if (code.startsWith("Throttling") || status === 429) return "rate_limited";
  if (SYNC_REFUSAL.test(message)) return "bad_request";
  if (code === "InvalidApiKey" || code.includes("AccessDenied") || status === 401 || status === 403) return "auth";
  if (code.startsWith("InternalError") || code === "SystemError" || status >= 500) return "upstream";
  if (code.startsWith("Invalid") || code === "ModelNotFound" || code === "UnsupportedOperation" || (status >= 400 && status < 500)) return "bad_request";
  return "upstream";
}

/** Seconds or an HTTP date, as Retry-After may say, in milliseconds from now. */
export function readRetryAfter(value: string | null) {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function toProviderError(refusal: TDashscopeRefusal, retryAfterMs?: number) {
  const label = refusal.code || `HTTP ${refusal.status}`;
  return new ProviderError(classifyRefusal(refusal, "call"), `DashScope ${label}: ${refusal.message}`, retryAfterMs);
}
