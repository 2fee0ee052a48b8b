// Tencent's APIs (WeChat, WeCom) answer 200 with {errcode, errmsg}, sometimes as text/plain: the
// body is read as JSON whatever its type. An errcode other than 0 is thrown through `fail`; a
// platform that cannot be reached, or answers something else, fails with errcode -1 (as their
// own "system busy"). URLs carry secrets or tokens, so they never go into an error message.
const TIMEOUT_MS = 10_000;

export type TErrcodeFail = (errcode: number, errmsg: string, opts?: { cause?: unknown }) => Error;

/** `payload` is POSTed as JSON, `form` as multipart/form-data (uploads, which may take `timeoutMs` longer than a call). */
export async function fetchErrcodeJson(
  url: string,
  fail: TErrcodeFail,
  opts: { name: string; payload?: object; form?: FormData; timeoutMs?: number },
): Promise<Record<string, unknown>> {
  let res: Response;
  let text: string;
  try {
    const init: RequestInit = { signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS), redirect: "error" };
    if (opts.payload) Object.assign(init, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts.payload) });
    else if (opts.form) Object.assign(init, { method: "POST", body: opts.form });
    res = await fetch(url, init);
    text = await res.text();
  } catch (err) {
    throw fail(-1, `${opts.name} unreachable`, { cause: err });
  }
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== "object") throw new Error("not an object");
    body = parsed as Record<string, unknown>;
  } catch {
    throw fail(-1, `HTTP ${res.status}, not JSON: ${text.slice(0, 120)}`);
  }
  if (typeof body.errcode === "number" && body.errcode !== 0) throw fail(body.errcode, String(body.errmsg ?? ""));
  if (!res.ok) throw fail(-1, `HTTP ${res.status}`);
  return body;
}
