// Multipart uploads from the browser: like apiRequest, but the body is FormData (files), so the
// browser sets the boundary. Writes carry the CSRF cookie's token in X-CSRF-Token.
import { ApiError, type TEnvelope } from "./api-client";

export function readCsrfToken(cookie = typeof document === "undefined" ? "" : document.cookie) {
  const match = /(?:^|;\s*)zl_csrf=([^;]+)/.exec(cookie);
  return match ? decodeURIComponent(match[1]) : undefined;
}

/** Posts the form and answers the envelope's data, or throws ApiError with its localized description. */
export async function postFormData<T = unknown>(path: string, form: FormData, opts: { fallbackError: string }): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const csrf = readCsrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, { method: "POST", headers, body: form, credentials: "same-origin" });
  // A proxy in front may refuse a large body with its own page: that is still a failed upload.
  const envelope = (await res.json().catch(() => null)) as TEnvelope<T> | null;
  if (!envelope) throw new ApiError(res.status, opts.fallbackError, null);
  if (envelope.status === 110003) {
    window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
  if (envelope.status !== 200 && envelope.status !== 10001) throw new ApiError(envelope.status, envelope.description, envelope.data);
  return envelope.data;
}
