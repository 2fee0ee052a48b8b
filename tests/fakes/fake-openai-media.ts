// A loopback stand-in for OpenAI's pictures and speech (the chat fake is fake-openai.ts):
// POST /v1/images/generations (JSON), POST /v1/images/edits (multipart, the picture a file part),
// POST /v1/audio/speech (audio bytes). It checks the Bearer key and each model's own vocabulary
// (sizes, n, quality, style, response_format, prompt length, an edit's picture) and refuses as
// OpenAI does: {error: {message, type, param, code}}. Pictures come back as b64_json, or as links it
// serves itself like Azure blob storage with a signed query string (expired ones answer 403).
// Each call answers its result, so a task lives for one request: `hold` keeps that request waiting
// until finish(taskId); pollsUntilDone means nothing here.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type http from "node:http";
import { imageSize } from "image-size";
import { drawPicture, isInteger, makeGate, sendJson, startLoopback, type TFakeBehaviourBase, type TFakeRequest } from "./media-fake-kit";

export type TOpenaiMediaBehaviour = Omit<TFakeBehaviourBase, "pollsUntilDone"> & {
  submitError?: "balance" | "rate_limited" | "content_input" | "auth" | "bad_request";
  /** Links in the answers no longer open (403, like a blob link past its signed expiry). */
  expiredLinks?: boolean;
  /** Answer links whatever response_format said, as some OpenAI-compatible servers do. */
  linkResults?: boolean;
};

export type TOpenaiMediaTask = {
  id: string;
  endpoint: "generations" | "edits" | "speech";
  body: any;
  state: "running" | "succeeded" | "failed";
  finish: () => void;
};

const SAMPLE_MP3 = path.resolve(import.meta.dirname, "../fixtures/media/sample.mp3");
const FAMILIES = {
  "dall-e-2": { sizes: ["256x256", "512x512", "1024x1024"], qualities: ["standard"], promptMax: 1000, edits: true },
  "dall-e-3": { sizes: ["1024x1024", "1792x1024", "1024x1792"], qualities: ["standard", "hd"], promptMax: 4000, edits: false },
  "gpt-image-1": { sizes: ["1024x1024", "1536x1024", "1024x1536", "auto"], qualities: ["low", "medium", "high", "auto"], promptMax: 32000, edits: true },
} as const;
const SPEECH_MODELS = ["tts-1", "tts-1-hd", "gpt-4o-mini-tts"];
const VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer", "verse"];
const SPEECH_FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"];

type TRefusal = { status: number; message: string; type: string; param?: string | null; code?: string | null; headers?: Record<string, string> };
const refuse = (res: http.ServerResponse, r: TRefusal) =>
  sendJson(res, r.status, { error: { message: r.message, type: r.type, param: r.param ?? null, code: r.code ?? null } }, r.headers);
const invalid = (message: string, param: string | null = null, code: string | null = null): TRefusal => ({
  status: 400,
  message,
  type: "invalid_request_error",
  param,
  code,
});

const SUBMIT_ERRORS: Record<NonNullable<TOpenaiMediaBehaviour["submitError"]>, TRefusal> = {
  balance: {
    status: 429,
    message: "You exceeded your current quota, please check your plan and billing details.",
    type: "insufficient_quota",
    code: "insufficient_quota",
  },
  rate_limited: {
    status: 429,
    message: "Rate limit reached for images per minute. Please try again in 20s.",
    type: "requests",
    code: "rate_limit_exceeded",
    headers: { "retry-after": "20" },
  },
  content_input: invalid(
    "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
    null,
    "content_policy_violation",
  ),
  auth: {
    status: 401,
    message: "Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys.",
    type: "invalid_request_error",
    code: "invalid_api_key",
  },
  bad_request: invalid("Invalid value for 'size'.", "size", "invalid_value"),
};

/** A real WAV: 16-bit mono PCM at 24 kHz, a quarter second of silence. */
export function makeWav(samples = 6000) {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(24000, 24);
  header.writeUInt32LE(48000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([header, Buffer.alloc(samples * 2)]);
}

/** The request's fields and files: JSON as it is, a multipart form read into both. */
async function readForm(got: TFakeRequest) {
  const form = await new Request("http://fake/", {
    method: "POST",
    headers: { "content-type": String(got.headers["content-type"] ?? "") },
    body: new Uint8Array(got.raw),
  })
    .formData()
    .catch(() => null);
  const fields: Record<string, string> = {};
  const files: Record<string, { bytes: Buffer; filename: string; type: string }> = {};
  for (const [key, value] of form?.entries() ?? []) {
    if (typeof value === "string") fields[key] = value;
    else files[key] = { bytes: Buffer.from(await value.arrayBuffer()), filename: value.name, type: value.type };
  }
  return form ? { fields, files } : null;
}

function checkPictureFields(body: any, endpoint: "generations" | "edits"): TRefusal | null {
  const model = String(body.model ?? "dall-e-2");
  const family = FAMILIES[model as keyof typeof FAMILIES];
  if (!family)
    return invalid(
      `Invalid value: '${model}'. Supported values are: ${Object.keys(FAMILIES)
        .map((m) => `'${m}'`)
        .join(", ")}.`,
      "model",
      "invalid_value",
    );
  if (endpoint === "edits" && !family.edits) return invalid(`Invalid value: '${model}'. Value must be 'dall-e-2' or 'gpt-image-1'.`, "model", "invalid_value");
  if (typeof body.prompt !== "string" || !body.prompt) return invalid("'prompt' is a required property");
  if (body.prompt.length > family.promptMax)
    return invalid(`Invalid 'prompt': string too long. Expected a string with maximum length ${family.promptMax}.`, "prompt", "string_above_max_length");
  const n = body.n === undefined ? 1 : Number(body.n);
  if (!isInteger(n) || n < 1 || n > 10) return invalid(`${body.n} is not valid under any of the given schemas - 'n'`, "n");
  if (model === "dall-e-3" && n !== 1) return invalid("You must provide n=1 for this model.", "n");
  if (body.size !== undefined && !(family.sizes as readonly string[]).includes(body.size))
    return invalid(`'${body.size}' is not one of [${family.sizes.map((s) => `'${s}'`).join(", ")}] - 'size'`, "size");
  if (body.quality !== undefined && !(family.qualities as readonly string[]).includes(body.quality))
    return invalid(`Invalid value: '${body.quality}'.`, "quality", "invalid_value");
  if (body.style !== undefined && model !== "dall-e-3") return invalid("Unknown parameter: 'style'.", "style", "unknown_parameter");
  if (body.style !== undefined && !["vivid", "natural"].includes(body.style))
    return invalid(`'${body.style}' is not one of ['vivid', 'natural'] - 'style'`, "style");
  if (body.response_format !== undefined && model === "gpt-image-1")
    return invalid("Unknown parameter: 'response_format'.", "response_format", "unknown_parameter");
  if (body.response_format !== undefined && !["url", "b64_json"].includes(body.response_format))
    return invalid(`'${body.response_format}' is not one of ['url', 'b64_json'] - 'response_format'`, "response_format");
  return null;
}

function checkEditPicture(model: string, file: { bytes: Buffer; type: string } | undefined): TRefusal | null {
  if (!file) return invalid("'image' is a required property", "image");
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(file.bytes);
  } catch {
    return invalid("Invalid input image - format must be in ['png', 'jpeg', 'webp'].", "image", "invalid_image_format");
  }
  if (model === "dall-e-2" && (size.type !== "png" || file.bytes.length > 4 * 1024 * 1024))
    return invalid("Uploaded image must be a PNG and less than 4 MB.", "image");
  if (model === "dall-e-2" && size.width !== size.height) return invalid("Invalid input image - image must be square.", "image");
  if (!["png", "jpg", "webp"].includes(String(size.type)))
    return invalid("Invalid input image - format must be in ['png', 'jpeg', 'webp'].", "image", "invalid_image_format");
  return null;
}

function checkSpeech(body: any): TRefusal | null {
  if (!SPEECH_MODELS.includes(body?.model))
    return {
      status: 404,
      message: `The model \`${body?.model}\` does not exist or you do not have access to it.`,
      type: "invalid_request_error",
      code: "model_not_found",
    };
  if (typeof body.input !== "string" || !body.input) return invalid("'input' is a required property", "input");
  if (body.input.length > 4096)
    return invalid(
      `Invalid 'input': string too long. Expected a string with maximum length 4096, but got a string with length ${body.input.length} instead.`,
      "input",
      "string_above_max_length",
    );
  if (!VOICES.includes(body.voice))
    return invalid(`Invalid value: '${body.voice}'. Supported values are: ${VOICES.map((v) => `'${v}'`).join(", ")}.`, "voice", "invalid_value");
  const format = body.response_format ?? "mp3";
  if (!SPEECH_FORMATS.includes(format)) return invalid(`Invalid value: '${format}'.`, "response_format", "invalid_value");
  if (format !== "mp3" && format !== "wav") return invalid(`the fake serves mp3 and wav only, not ${format}`, "response_format");
  return null;
}

export async function startFakeOpenaiMedia(opts: { apiKey?: string } = {}) {
  const apiKey = opts.apiKey ?? "sk-fake-media-key";
  const tasks = new Map<string, TOpenaiMediaTask>();
  const files = new Map<string, { bytes: Buffer; sig: string; expired: boolean }>();
  let behaviour: TOpenaiMediaBehaviour = {};
  let origin = "";

  function storePicture(bytes: Buffer, expired: boolean) {
    const name = `img-${crypto.randomBytes(8).toString("hex")}.png`;
    const sig = crypto.randomBytes(16).toString("base64url");
    files.set(name, { bytes, sig, expired });
    const se = new Date(Date.now() + 3_600_000).toISOString();
    return `${origin}/private/org-fake/user-fake/${name}?st=${encodeURIComponent(new Date().toISOString())}&se=${encodeURIComponent(se)}&sp=r&sv=2021-08-06&sr=b&sig=${encodeURIComponent(sig)}`;
  }

  function serveFile(got: TFakeRequest, res: http.ServerResponse) {
    const file = files.get(path.basename(got.path));
    if (!file || file.expired || got.query.get("sig") !== file.sig) {
      const xml = `<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request. Signed expiry time has passed.</Message></Error>`;
      return void res.writeHead(403, { "content-type": "application/xml" }).end(xml);
    }
    res.writeHead(200, { "content-type": "image/png", "content-length": String(file.bytes.length) }).end(file.bytes);
  }

  function answerPictures(res: http.ServerResponse, body: any, b: TOpenaiMediaBehaviour) {
    const n = Number(body.n ?? 1);
    const [w, h] = String(body.size && body.size !== "auto" ? body.size : "1024x1024")
      .split("x")
      .map(Number);
    const asLinks = b.linkResults || body.response_format === "url" || (body.response_format === undefined && body.model !== "gpt-image-1");
    const data = Array.from({ length: n }, (_, i) => {
      const png = drawPicture(w, h, 60 + i * 40);
      return asLinks ? { url: storePicture(png, Boolean(b.expiredLinks)) } : { b64_json: png.toString("base64") };
    });
    sendJson(res, 200, { created: Math.floor(Date.now() / 1000), data });
  }

  async function runTask(endpoint: TOpenaiMediaTask["endpoint"], body: any, res: http.ServerResponse, b: TOpenaiMediaBehaviour) {
    const gate = makeGate();
    const task: TOpenaiMediaTask = { id: `req_${crypto.randomBytes(8).toString("hex")}`, endpoint, body, state: "running", finish: gate.open };
    tasks.set(task.id, task);
    if (b.hold) await gate.opened;
    if (b.outcome === "failed") {
      task.state = "failed";
      return refuse(res, { status: 500, message: "The server had an error while processing your request. Sorry about that!", type: "server_error" });
    }
    task.state = "succeeded";
    if (endpoint !== "speech") return answerPictures(res, body, b);
    const wav = body.response_format === "wav";
    const audio = wav ? makeWav() : fs.readFileSync(SAMPLE_MP3);
    res.writeHead(200, { "content-type": wav ? "audio/wav" : "audio/mpeg", "content-length": String(audio.length) }).end(audio);
  }

  const loopback = await startLoopback(async (got, res) => {
    if (got.method === "GET" && got.path.startsWith("/private/")) return serveFile(got, res);
    const key = String(got.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    if (!got.headers.authorization) return refuse(res, { status: 401, message: "You didn't provide an API key.", type: "invalid_request_error" });
    if (key !== apiKey) return refuse(res, { ...SUBMIT_ERRORS.auth, message: `Incorrect API key provided: ${key.slice(0, 3)}****${key.slice(-4)}.` });
    const endpoint = ({ "/v1/images/generations": "generations", "/v1/images/edits": "edits", "/v1/audio/speech": "speech" } as const)[got.path];
    if (got.method !== "POST" || !endpoint) return refuse(res, invalid(`Invalid URL (${got.method} ${got.path})`));
    const b = behaviour;
    if (b.submitError) return refuse(res, SUBMIT_ERRORS[b.submitError]);
    let body = got.body;
    if (endpoint === "edits") {
      const form = await readForm(got);
      if (!form) return refuse(res, invalid("Invalid multipart body"));
      body = { ...form.fields, image: form.files.image ?? form.files["image[]"] };
      got.body = { fields: form.fields, files: form.files };
    }
    if (!body || typeof body !== "object" || Buffer.isBuffer(body)) return refuse(res, invalid("We could not parse the JSON body of your request."));
    const refusal =
      endpoint === "speech"
        ? checkSpeech(body)
        : (checkPictureFields(body, endpoint) ?? (endpoint === "edits" ? checkEditPicture(body.model ?? "dall-e-2", body.image) : null));
    if (refusal) return refuse(res, refusal);
    await runTask(endpoint, body, res, b);
  });
  origin = loopback.origin;

  return {
    /** The base URL as a channel stores it (with /v1). */
    url: `${origin}/v1`,
    apiKey,
    requests: loopback.requests,
    tasks,
    behave(b: TOpenaiMediaBehaviour) {
      behaviour = { ...b };
    },
    finish(taskId: string) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`no task ${taskId}`);
      task.finish();
    },
    close: loopback.close,
  };
}
