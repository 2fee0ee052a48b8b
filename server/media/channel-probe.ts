// The channel test button's request for a media provider's channel: the cheapest call its API
// answers only to a valid key, one that makes, queues and bills nothing.
//   Kling: GET /v1/images/generations?pageNum=1&pageSize=1, the account's image task list (its
//     "query task list" call), with the JWT signed from "accessKey:secretKey" (kling-jwt.ts).
//   DashScope: GET /api/v1/tasks/{id} for an id no task has: a valid key reads task_status UNKNOWN
//     ("no such task"), a bad one is refused (InvalidApiKey), with the API key as a bearer token.
//   SD WebUI: GET /sdapi/v1/samplers, what it can draw with, with HTTP Basic when the key is
//     "user:password" (the WebUI's --api-auth guards every /sdapi route).
//   ComfyUI: GET /queue, what it is running and what waits, with a bearer token when the key is set
//     (ComfyUI has no accounts; a proxy in front of it checks the token).
//   HeyGen: GET /v2/user/remaining_quota, the account's credit, with the key in X-Api-Key.
//   HeyGem (Duix.Avatar): GET /easy/query?code=<an id no task has>, answered with its JSON envelope
//     (a code and a message) and no task; a bearer token when the key is set (a proxy checks it).
// Each answer must also look like that provider's, so a base URL pointing at some other server that
// happens to answer 200 is reported rather than passed.
import { guardedFetch } from "../net/guarded-fetch";
import type { TChannelProbeResult, TChannelProbeTarget } from "../models/channel-probe";
import type { TMediaChannelType } from "../models/models.schema";
import { classifyRefusal, readRefusal } from "./providers/dashscope-refusals";
import { mapKlingCode } from "./providers/kling";
import { forgetKlingToken, getKlingToken } from "./providers/kling-jwt";
import { ProviderError } from "./providers/provider";

const PROBE_TIMEOUT_MS = 15_000;
/** A task id DashScope never issues (its ids are UUIDs): reading it costs nothing and proves the key. */
const DASHSCOPE_NO_TASK = "zelin-channel-test";
/** Far more than any of these answers; a probe never needs more. */
const PROBE_MAX_BYTES = 2 * 1024 * 1024;

type TReading = { status: number; text: string };
type TGet = (url: string, headers: Record<string, string>) => Promise<TReading>;
type TProbe = (baseUrl: string, secret: string, get: TGet) => Promise<TChannelProbeResult>;

const OK: TChannelProbeResult = { ok: true };

const PROVIDER_LABELS: Record<TMediaChannelType, string> = {
  kling: "Kling",
  dashscope: "DashScope",
  sdwebui: "SD WebUI",
  comfyui: "ComfyUI",
  heygen: "HeyGen",
  heygem: "HeyGem",
};

/** One test of a media channel: ok, or what went wrong and whether the key itself was refused. */
export async function probeMediaChannel(target: TChannelProbeTarget): Promise<TChannelProbeResult> {
  const baseUrl = target.baseUrl.replace(/\/+$/, "");
  try {
    return await PROBES[target.type](baseUrl, target.secret, target.guarded ? getGuarded : getDirect);
  } catch (err) {
    // A Kling key without both halves cannot sign a token: that is the key's fault.
    if (err instanceof ProviderError) return { ok: false, error: err.message, keyRefused: err.failure === "auth" };
    return { ok: false, error: `${PROVIDER_LABELS[target.type]} could not be reached: ${describeError(err)}`, keyRefused: false };
  }
}

const PROBES: Record<TMediaChannelType, TProbe> = {
  async kling(baseUrl, secret, get) {
    const token = await getKlingToken(secret);
    const res = await get(`${baseUrl}/v1/images/generations?pageNum=1&pageSize=1`, { authorization: `Bearer ${token}`, accept: "application/json" });
    const answer = readJson(res.text) as { code?: unknown; message?: unknown } | null;
    const code = typeof answer?.code === "number" ? answer.code : null;
    if (res.status === 200 && code === 0) return OK;
    const failure = code !== null ? mapKlingCode(code, res.status) : classifyStatus(res.status);
    if (failure === "auth") forgetKlingToken(secret);
    const message = typeof answer?.message === "string" ? answer.message : describeBody(res);
    return { ok: false, error: `Kling ${code ?? `HTTP ${res.status}`}: ${message}`, keyRefused: failure === "auth" };
  },

  async dashscope(baseUrl, secret, get) {
    // Admins paste either the host or the SDKs' base URL ending in /api/v1.
    const root = baseUrl.replace(/\/api\/v1$/, "");
    const res = await get(`${root}/api/v1/tasks/${DASHSCOPE_NO_TASK}`, { authorization: `Bearer ${secret}`, accept: "application/json" });
    const answer = readJson(res.text);
    if (res.status === 200 && isObject(answer) && isObject(answer.output)) return OK;
    if (res.status === 200) return { ok: false, error: `DashScope answered something else: ${describeBody(res)}`, keyRefused: false };
    const refusal = readRefusal(res.status, answer, res.text);
    const keyRefused = classifyRefusal(refusal, "call") === "auth";
    return { ok: false, error: `DashScope ${refusal.code || `HTTP ${res.status}`}: ${refusal.message}`, keyRefused };
  },

  async sdwebui(baseUrl, secret, get) {
    const headers: Record<string, string> = { accept: "application/json" };
    if (secret) headers.authorization = `Basic ${Buffer.from(secret, "utf8").toString("base64")}`;
    const res = await get(`${baseUrl}/sdapi/v1/samplers`, headers);
    if (res.status === 200 && Array.isArray(readJson(res.text))) return OK;
    return refuseByStatus("SD WebUI", res);
  },

  async comfyui(baseUrl, secret, get) {
    const headers: Record<string, string> = { accept: "application/json" };
    if (secret) headers.authorization = `Bearer ${secret}`;
    const res = await get(`${baseUrl}/queue`, headers);
    const answer = readJson(res.text);
    if (res.status === 200 && isObject(answer) && Array.isArray(answer.queue_running)) return OK;
    return refuseByStatus("ComfyUI", res);
  },

  async heygen(baseUrl, secret, get) {
    const res = await get(`${baseUrl}/v2/user/remaining_quota`, { "x-api-key": secret, accept: "application/json" });
    const answer = readJson(res.text);
    if (res.status === 200 && isObject(answer) && isObject(answer.data)) return OK;
    const error = isObject(answer) && isObject(answer.error) ? answer.error : null;
    const message = typeof error?.message === "string" ? error.message : describeBody(res);
    return {
      ok: false,
      error: `HeyGen ${res.status === 200 ? "answered something else" : `HTTP ${res.status}`}: ${message}`,
      keyRefused: res.status === 401 || res.status === 403,
    };
  },

  async heygem(baseUrl, secret, get) {
    const headers: Record<string, string> = { accept: "application/json" };
    if (secret) headers.authorization = `Bearer ${secret}`;
    const res = await get(`${baseUrl}/easy/query?code=${DASHSCOPE_NO_TASK}`, headers);
    const answer = readJson(res.text);
    if (res.status === 200 && isObject(answer) && "code" in answer) return OK;
    return refuseByStatus("HeyGem", res);
  },
};

/** A self-hosted server's refusal: only 401 and 403 are about the key; anything else is the server. */
function refuseByStatus(label: string, res: TReading): TChannelProbeResult {
  const what = res.status === 200 ? "answered something else" : `HTTP ${res.status}`;
  return { ok: false, error: `${label} ${what}: ${describeBody(res)}`, keyRefused: res.status === 401 || res.status === 403 };
}

function classifyStatus(status: number) {
  if (status === 401 || status === 403) return "auth";
  return status === 429 ? "rate_limited" : "upstream";
}

/** The platform's own channels: the administrators' base URLs, reached directly. */
async function getDirect(url: string, headers: Record<string, string>): Promise<TReading> {
  const res = await fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  return { status: res.status, text: await res.text() };
}

/** An account's own channel: its base URL is the account's, so every hop is checked by the SSRF guard. */
async function getGuarded(url: string, headers: Record<string, string>): Promise<TReading> {
  const { response, body } = await guardedFetch(url, { headers }, { timeoutMs: PROBE_TIMEOUT_MS, maxBytes: PROBE_MAX_BYTES });
  return { status: response.status, text: body.toString("utf8") };
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

function describeBody(res: TReading) {
  const text = res.text.replace(/\s+/g, " ").trim();
  return text ? text.slice(0, 200) : "(empty body)";
}

function describeError(err: unknown) {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const message = err instanceof Error ? err.message : String(err);
  return cause?.code ? `${message} (${cause.code})` : cause?.message ? `${message}: ${cause.message}` : message;
}
