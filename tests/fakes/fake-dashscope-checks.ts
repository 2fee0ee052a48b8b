// What the DashScope fake refuses, and how DashScope words it: a bearer key it does not know
// (401 InvalidApiKey), an async-only endpoint called without X-DashScope-Async (403 AccessDenied,
// "current user api does not support synchronous calls"), and bodies its models would refuse
// (400 InvalidParameter): a missing model or prompt, a size wanx-v1 does not draw or a side outside
// 512-1440 for the wan 2.x models, more than 4 pictures, a frame that is neither a link nor a
// base64 picture, a duration the models do not make, speech without text, voice or a known format.

export type TDashscopeRefusal = { status: number; code: string; message: string };
export type TDashscopeSubmitError = "balance" | "rate_limited" | "content_input" | "auth" | "bad_request" | "no_face" | "too_long";

export const SUBMIT_ERRORS: Record<TDashscopeSubmitError, TDashscopeRefusal> = {
  balance: { status: 400, code: "Arrearage", message: "Access denied, please make sure your account is in good standing." },
  rate_limited: { status: 429, code: "Throttling.RateQuota", message: "Requests rate limit exceeded, please try again later." },
  content_input: { status: 400, code: "DataInspectionFailed", message: "Input data may contain inappropriate content." },
  auth: { status: 403, code: "AccessDenied.Unpurchased", message: "Access to model denied. Please make sure you are eligible for using the model." },
  bad_request: { status: 400, code: "InvalidParameter", message: "The request is invalid, please check the parameters." },
  no_face: { status: 400, code: "InvalidFile.Content", message: "No human face was detected in the input video." },
  too_long: { status: 400, code: "InvalidFile.Duration", message: "The duration of the input audio exceeds the limit of 120 seconds." },
};

export const WANX_V1_SIZES = ["1024*1024", "720*1280", "768*1152", "1280*720"];
const WANX_V1_STYLES = [
  "<auto>",
  "<photography>",
  "<portrait>",
  "<3d cartoon>",
  "<anime>",
  "<oil painting>",
  "<watercolor>",
  "<sketch>",
  "<chinese painting>",
  "<flat illustration>",
];
const DURATIONS = [3, 4, 5, 10];
const SPEECH_FORMATS = ["mp3", "wav", "pcm", "opus"];
const SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000];

const invalid = (message: string): TDashscopeRefusal => ({ status: 400, code: "InvalidParameter", message });
const isText = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

export function checkBearer(authorization: string | undefined, apiKey: string): TDashscopeRefusal | null {
  if (!authorization) return { status: 401, code: "InvalidApiKey", message: "No API-key provided." };
  if (authorization !== `Bearer ${apiKey}`) return { status: 401, code: "InvalidApiKey", message: "Invalid API-key provided." };
  return null;
}

export function checkAsyncHeader(value: string | string[] | undefined): TDashscopeRefusal | null {
  if (value === "enable") return null;
  return { status: 403, code: "AccessDenied", message: "current user api does not support synchronous calls" };
}

/** The picture a data: URL holds, by its first bytes (PNG, JPEG, WebP), or null. */
export function decodeFrame(url: string): { mime: string; bytes: Buffer } | null {
  const m = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/=]+)$/.exec(url);
  if (!m) return null;
  const bytes = Buffer.from(m[2], "base64");
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const webp = bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP";
  return png || jpeg || webp ? { mime: m[1], bytes } : null;
}

function checkFrame(field: string, value: unknown): TDashscopeRefusal | null {
  if (!isText(value)) return invalid(`Field required: input.${field}`);
  if (/^https?:\/\//.test(value)) return null;
  if (value.startsWith("data:")) return decodeFrame(value) ? null : invalid(`The image in input.${field} could not be decoded, please check the base64 data.`);
  return invalid(`input.${field} must be a public url or a base64 data uri.`);
}

function checkModel(body: any): TDashscopeRefusal | null {
  if (!body || typeof body !== "object") return invalid("Request body is not valid json.");
  if (!isText(body.model)) return invalid("Model not exist.");
  if (!body.input || typeof body.input !== "object") return invalid("Field required: input");
  return null;
}

function checkSize(model: string, size: unknown): TDashscopeRefusal | null {
  if (size === undefined) return null;
  const m = typeof size === "string" ? /^(\d+)\*(\d+)$/.exec(size) : null;
  if (!m) return invalid(`The size '${String(size)}' is not in the format width*height.`);
  if (model === "wanx-v1")
    return WANX_V1_SIZES.includes(size as string) ? null : invalid(`The size is not match the allowed size ${JSON.stringify(WANX_V1_SIZES)}.`);
  const sides = [Number(m[1]), Number(m[2])];
  return sides.every((s) => s >= 512 && s <= 1440) ? null : invalid("The width and height of size must be within [512, 1440].");
}

export function checkImageBody(body: any): TDashscopeRefusal | null {
  const refused = checkModel(body);
  if (refused) return refused;
  if (!isText(body.input.prompt)) return invalid("Field required: input.prompt");
  if (body.input.negative_prompt !== undefined && typeof body.input.negative_prompt !== "string") return invalid("input.negative_prompt must be a string.");
  const p = body.parameters ?? {};
  const sizeRefused = checkSize(body.model, p.size);
  if (sizeRefused) return sizeRefused;
  if (p.n !== undefined && !(Number.isInteger(p.n) && p.n >= 1 && p.n <= 4)) return invalid("Range of n should be [1, 4].");
  if (p.seed !== undefined && !(Number.isInteger(p.seed) && p.seed >= 0 && p.seed <= 2_147_483_647)) return invalid("Range of seed should be [0, 2147483647].");
  if (body.model === "wanx-v1" && p.style !== undefined && !WANX_V1_STYLES.includes(p.style))
    return invalid(`The style '${String(p.style)}' is not supported.`);
  return null;
}

/** Image-to-video takes input.img_url; the first-and-last-frame endpoint takes both frames. */
export function checkVideoBody(body: any, keyframes: boolean): TDashscopeRefusal | null {
  const refused = checkModel(body);
  if (refused) return refused;
  const frames = keyframes ? ["first_frame_url", "last_frame_url"] : ["img_url"];
  for (const field of frames) {
    const bad = checkFrame(field, body.input[field]);
    if (bad) return bad;
  }
  if (body.input.prompt !== undefined && typeof body.input.prompt !== "string") return invalid("input.prompt must be a string.");
  const duration = body.parameters?.duration;
  if (duration !== undefined && !DURATIONS.includes(duration)) return invalid(`The duration must be one of ${JSON.stringify(DURATIONS)}.`);
  return null;
}

export function checkSpeechBody(body: any, qwenTts: boolean): TDashscopeRefusal | null {
  const refused = checkModel(body);
  if (refused) return refused;
  if (qwenTts && !/tts/i.test(body.model)) return invalid("Model not exist.");
  if (!isText(body.input.text)) return invalid("Field required: input.text");
  if (!isText(body.input.voice)) return invalid("Field required: input.voice");
  if (qwenTts) return null;
  if (body.input.format !== undefined && !SPEECH_FORMATS.includes(body.input.format))
    return invalid(`The format '${String(body.input.format)}' is not supported.`);
  if (body.input.sample_rate !== undefined && !SAMPLE_RATES.includes(body.input.sample_rate))
    return invalid(`The sample_rate '${String(body.input.sample_rate)}' is not supported.`);
  return null;
}
