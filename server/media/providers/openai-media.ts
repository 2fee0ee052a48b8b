// OpenAI's pictures and speech, which also speaks for every OpenAI-compatible server behind a channel
// of another type. The protocol as OpenAI's API reference describes it: POST {base}/images/generations
// (JSON), POST {base}/images/edits (multipart, carrying the reference picture), POST {base}/audio/speech
// (JSON in, audio bytes out), a Bearer key, and refusals as {error: {message, type, param, code}}.
// The base URL already ends in /v1. Every call answers with its result, so submit hands back a
// finished status and there is nothing left to poll.
//
// The DALL·E and GPT image models each take a few sizes, qualities and styles: the request is fitted
// to the model's own vocabulary (a server we do not know gets the exact size asked). dall-e-3 draws
// one picture a call, so several pictures are several calls. GPT image models always answer base64
// and refuse response_format and style.
import crypto from "node:crypto";
import { decodeBase64Picture } from "./image-bytes";
import {
  ProviderError,
  type TImageRequest,
  type TMediaProvider,
  type TProviderContext,
  type TProviderFailure,
  type TProviderOutput,
  type TSpeechRequest,
  type TSubmitted,
} from "./provider";

type TFamily = "dall-e-2" | "dall-e-3" | "gpt-image" | "other";

const SPEECH_MIME = { mp3: "audio/mpeg", wav: "audio/wav" } as const;
const DEFAULT_SPEECH_MODEL = "tts-1";
// Refusals of the prompt or the picture by OpenAI's safety system (dall-e answers the first, GPT image the second).
const CONTENT_CODES = new Set(["content_policy_violation", "moderation_blocked"]);
const BALANCE_CODES = new Set(["insufficient_quota", "billing_hard_limit_reached", "billing_not_active"]);

function readFamily(model: string): TFamily {
  if (/^dall-e-2\b/.test(model)) return "dall-e-2";
  if (/^dall-e-3\b/.test(model)) return "dall-e-3";
  if (/^gpt-image-/.test(model)) return "gpt-image";
  return "other";
}

/** The size the model draws closest to the one asked: landscape, portrait or square. */
export function pickImageSize(model: string, width: number, height: number): string {
  const family = readFamily(model);
  const ratio = width / height;
  const shape = ratio > 1.2 ? "landscape" : ratio < 1 / 1.2 ? "portrait" : "square";
  if (family === "dall-e-2") return "1024x1024";
  if (family === "dall-e-3") return { landscape: "1792x1024", portrait: "1024x1792", square: "1024x1024" }[shape];
  if (family === "gpt-image") return { landscape: "1536x1024", portrait: "1024x1536", square: "1024x1024" }[shape];
  return `${width}x${height}`;
}

/** The fields of one drawing call, in the model's vocabulary. */
function buildImageFields(req: TImageRequest, n: number): Record<string, string | number> {
  const family = readFamily(req.model);
  const fields: Record<string, string | number> = { model: req.model, prompt: req.prompt, n, size: pickImageSize(req.model, req.width, req.height) };
  if (family === "gpt-image") fields.quality = req.quality === "hd" ? "high" : "medium";
  else if (family !== "dall-e-2") fields.quality = req.quality;
  if (family === "dall-e-3" && (req.style === "vivid" || req.style === "natural")) fields.style = req.style;
  if (family !== "gpt-image") fields.response_format = "b64_json";
  return fields;
}

function readRetryAfterMs(headers: Headers): number | undefined {
  const ms = Number(headers.get("retry-after-ms"));
  if (ms > 0) return ms;
  const header = headers.get("retry-after");
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function classifyRefusal(status: number, code: string, type: string): TProviderFailure {
  if (CONTENT_CODES.has(code)) return "content_input";
  if (BALANCE_CODES.has(code) || BALANCE_CODES.has(type) || status === 402) return "balance";
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return code === "model_not_found" ? "bad_request" : "upstream";
  if (status >= 400 && status < 500) return "bad_request";
  return "upstream";
}

/** An answer that is not a success, read into our words from OpenAI's error object. */
async function readRefusal(res: Response): Promise<ProviderError> {
  const text = await res.text().catch(() => "");
  let error: { message?: unknown; type?: unknown; code?: unknown } = {};
  try {
    error = JSON.parse(text)?.error ?? {};
  } catch {}
  const message = typeof error.message === "string" && error.message ? error.message : text.slice(0, 300) || `HTTP ${res.status}`;
  return new ProviderError(classifyRefusal(res.status, String(error.code ?? ""), String(error.type ?? "")), message, readRetryAfterMs(res.headers));
}

async function callOpenai(ctx: TProviderContext, path: string, init: { body: string | FormData; json: boolean }): Promise<Response> {
  const headers: Record<string, string> = {};
  if (ctx.secret) headers.authorization = `Bearer ${ctx.secret}`;
  if (init.json) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await ctx.fetch(`${ctx.baseUrl}${path}`, { method: "POST", headers, body: init.body, signal: ctx.signal });
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    throw new ProviderError("upstream", `OpenAI could not be reached: ${(err as Error).message}`);
  }
  if (!res.ok) throw await readRefusal(res);
  return res;
}

function readPictures(body: unknown): TProviderOutput[] {
  const data = (body as { data?: unknown })?.data;
  const outputs: TProviderOutput[] = [];
  for (const item of Array.isArray(data) ? data : []) {
    if (typeof item?.b64_json === "string") {
      const picture = decodeBase64Picture(item.b64_json);
      if (picture) outputs.push(picture);
    } else if (typeof item?.url === "string") {
      outputs.push({ url: item.url });
    }
  }
  return outputs;
}

/** One call: a drawing from text, or an edit of the reference picture (multipart, the picture inline). */
async function drawOnce(ctx: TProviderContext, req: TImageRequest, n: number): Promise<TProviderOutput[]> {
  const fields = buildImageFields(req, n);
  let res: Response;
  if (req.reference) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) if (key !== "style") form.append(key, String(value));
    const extension = req.reference.mime.split("/")[1] ?? "png";
    form.append("image", new Blob([new Uint8Array(req.reference.bytes)], { type: req.reference.mime }), `reference.${extension}`);
    res = await callOpenai(ctx, "/images/edits", { body: form, json: false });
  } else {
    res = await callOpenai(ctx, "/images/generations", { body: JSON.stringify(fields), json: true });
  }
  const outputs = readPictures(await res.json().catch(() => null));
  if (!outputs.length) throw new ProviderError("upstream", "the image answer carried no picture");
  return outputs;
}

async function draw(ctx: TProviderContext, req: TImageRequest): Promise<TProviderOutput[]> {
  if (readFamily(req.model) !== "dall-e-3") return drawOnce(ctx, req, req.count);
  const outputs: TProviderOutput[] = [];
  for (let i = 0; i < req.count; i++) outputs.push(...(await drawOnce(ctx, req, 1)));
  return outputs;
}

async function speak(ctx: TProviderContext, req: TSpeechRequest): Promise<TProviderOutput[]> {
  const body = { model: req.model || DEFAULT_SPEECH_MODEL, input: req.text, voice: req.voice, response_format: req.format };
  const res = await callOpenai(ctx, "/audio/speech", { body: JSON.stringify(body), json: true });
  // A compatible server may answer 200 with an error object instead of audio.
  if ((res.headers.get("content-type") ?? "").includes("json")) throw await readRefusal(new Response(await res.text(), { status: 502 }));
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!bytes.length) throw new ProviderError("upstream", "the speech answer carried no audio");
  return [{ bytes, mime: SPEECH_MIME[req.format] }];
}

export const openaiMediaProvider: TMediaProvider = {
  name: "openai",
  kinds: ["image", "speech"],

  async submit(ctx, req): Promise<TSubmitted> {
    if (req.kind !== "image" && req.kind !== "speech") throw new ProviderError("bad_request", "OpenAI-compatible channels make pictures and speech only");
    const outputs = req.kind === "image" ? await draw(ctx, req) : await speak(ctx, req);
    return { taskId: `openai-${crypto.randomUUID()}`, status: { state: "succeeded", outputs } };
  },

  // Each call answered with its result at submit; a task id of ours names nothing on OpenAI's side.
  async poll() {
    return { state: "failed", failure: "upstream", message: "OpenAI answers at submit and keeps no task to ask about" };
  },
};
