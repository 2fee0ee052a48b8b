// One authenticated DashScope call: `Authorization: Bearer <api key>`, JSON bodies, and
// `X-DashScope-Async: enable` for the endpoints that only run as tasks. A refusal is thrown as a
// ProviderError in our words (dashscope-refusals.ts).
import { readRefusal, readRetryAfter, toProviderError } from "./dashscope-refusals";
import type { TDashscopeCall } from "./dashscope-requests";
import { ProviderError, type TProviderContext } from "./provider";

export type TDashscopeResult = { url?: unknown; code?: unknown; message?: unknown };
export type TDashscopeTask = {
  task_id?: unknown;
  task_status?: unknown;
  results?: TDashscopeResult[];
  video_url?: unknown;
  code?: unknown;
  message?: unknown;
  task_metrics?: { TOTAL?: unknown; SUCCEEDED?: unknown; FAILED?: unknown };
};
export type TDashscopeAnswer = {
  request_id?: unknown;
  output?: TDashscopeTask & {
    audio?: { url?: unknown; id?: unknown; data?: unknown };
    finish_reason?: unknown;
    /** Voice enrollment's answers: the voice made, and whether it is ready (DEPLOYING, OK, UNDEPLOYED). */
    voice_id?: unknown;
    status?: unknown;
  };
};

/** The account's API root: admins paste either the host or the SDKs' base URL ending in /api/v1. */
function apiUrl(baseUrl: string, path: string) {
  return `${baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "")}${path}`;
}

/** One authenticated call; a refusal is thrown as a ProviderError in our words. */
export async function callDashscope(ctx: TProviderContext, method: "GET" | "POST", path: string, call?: TDashscopeCall): Promise<TDashscopeAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${ctx.secret}`, accept: "application/json" };
  if (call) headers["content-type"] = "application/json";
  if (call?.async) headers["x-dashscope-async"] = "enable";
  let res: Response;
  let text: string;
  try {
    res = await ctx.fetch(apiUrl(ctx.baseUrl, path), { method, headers, body: call ? JSON.stringify(call.body) : undefined, signal: ctx.signal });
    text = await res.text();
  } catch (err) {
    if (ctx.signal?.aborted || !(err instanceof TypeError)) throw err;
    throw new ProviderError("upstream", `DashScope unreachable: ${err.message}`);
  }
  let answer: unknown = null;
  try {
    answer = JSON.parse(text);
  } catch {}
  if (!res.ok) throw toProviderError(readRefusal(res.status, answer, text), readRetryAfter(res.headers.get("retry-after")));
  if (!answer || typeof answer !== "object") throw new ProviderError("upstream", `DashScope answered ${res.status} without JSON`);
  return answer as TDashscopeAnswer;
}
