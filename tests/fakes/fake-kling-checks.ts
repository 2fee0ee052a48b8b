// What the Kling stand-in checks before it takes a task: the bearer JWT (verified here with
// node:crypto, independently of the adapter's signing library) and the create bodies of
// /v1/images/generations, /v1/videos/image2video and /v1/videos/lip-sync, with the refusals Kling answers.
import crypto from "node:crypto";

export type TKlingRefusal = { status: number; code: number; message: string };

const IMAGE_RATIOS = ["16:9", "9:16", "1:1", "4:3", "3:4", "3:2", "2:3", "21:9"];
const CAMERA_TYPES = ["simple", "down_back", "forward_up", "right_turn_forward", "left_turn_forward"];
const CAMERA_AXES = ["horizontal", "vertical", "pan", "tilt", "roll", "zoom"];
const TEXT_MAX = 2500;
const PICTURE_MAX_BYTES = 10 * 1024 * 1024;
const PICTURE_MIN_SIDE = 300;

const refuse = (message: string, code = 1201): TKlingRefusal => ({ status: 400, code, message });
const unauthorized = (code: number, message: string): TKlingRefusal => ({ status: 401, code, message });

function decodeSegment(segment: string): any {
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

/** Null when the token is Kling's kind and signed with the secret of the one access key this fake knows. */
export function checkKlingToken(authorization: string | undefined, accessKey: string, secretKey: string, nowS = Math.floor(Date.now() / 1000)) {
  if (!authorization) return unauthorized(1001, "Authorization is empty");
  const m = /^Bearer (\S+)$/.exec(authorization);
  if (!m) return unauthorized(1002, "Authorization is invalid");
  const parts = m[1].split(".");
  if (parts.length !== 3) return unauthorized(1002, "Authorization is invalid");
  const header = decodeSegment(parts[0]);
  const payload = decodeSegment(parts[1]);
  if (header?.alg !== "HS256" || !payload || typeof payload !== "object") return unauthorized(1002, "Authorization is invalid");
  if (payload.iss !== accessKey) return unauthorized(1000, "Authentication failed: unknown access key");
  const expected = crypto.createHmac("sha256", secretKey).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], "base64url");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return unauthorized(1002, "Authorization is invalid: signature mismatch");
  if (typeof payload.exp !== "number" || payload.exp <= nowS) return unauthorized(1004, "Authorization has expired");
  if (typeof payload.nbf === "number" && payload.nbf > nowS) return unauthorized(1003, "Authorization is not yet valid");
  return null;
}

/** A picture as Kling takes it: bare base64 (no data: prefix) of a JPEG or PNG, 300 px a side at least. */
function checkPicture(value: unknown, field: string): TKlingRefusal | null {
  if (typeof value !== "string" || !value) return refuse(`${field} is required`);
  if (value.startsWith("data:")) return refuse(`${field} must be base64 without a data: prefix`);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return refuse(`${field} is neither a URL nor base64`);
  const bytes = Buffer.from(value, "base64");
  if (bytes.length > PICTURE_MAX_BYTES) return refuse(`${field} is larger than 10MB`);
  const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  if (!isPng && !isJpeg) return refuse(`${field} format is not supported, use jpg, jpeg or png`);
  if (isPng && (bytes.readUInt32BE(16) < PICTURE_MIN_SIDE || bytes.readUInt32BE(20) < PICTURE_MIN_SIDE)) {
    return refuse(`${field} resolution must be at least ${PICTURE_MIN_SIDE}x${PICTURE_MIN_SIDE}`);
  }
  return null;
}

function checkText(value: unknown, field: string, required: boolean) {
  if (value === undefined || value === null) return required ? refuse(`${field} is required`) : null;
  if (typeof value !== "string") return refuse(`${field} must be a string`);
  if (required && !value.trim()) return refuse(`${field} is required`);
  if ([...value].length > TEXT_MAX) return refuse(`${field} exceeds ${TEXT_MAX} characters`);
  return null;
}

function checkCommon(body: any) {
  if (body.model_name !== undefined && (typeof body.model_name !== "string" || !/^kling-v\d/.test(body.model_name))) {
    return { status: 404, code: 1203, message: `model ${String(body.model_name)} not found` };
  }
  if (body.callback_url !== undefined && (typeof body.callback_url !== "string" || !/^https?:\/\//.test(body.callback_url)))
    return refuse("callback_url is invalid");
  if (body.external_task_id !== undefined && typeof body.external_task_id !== "string") return refuse("external_task_id must be a string");
  return null;
}

export function checkImageBody(body: any): TKlingRefusal | null {
  if (!body || typeof body !== "object") return refuse("request body is invalid", 1200);
  const common = checkCommon(body) ?? checkText(body.prompt, "prompt", true) ?? checkText(body.negative_prompt, "negative_prompt", false);
  if (common) return common;
  if (body.image !== undefined) {
    const picture = checkPicture(body.image, "image");
    if (picture) return picture;
    if (body.negative_prompt) return refuse("negative_prompt is not supported when image is provided");
    if (/^kling-v1-5\b/.test(body.model_name ?? "") && !["subject", "face"].includes(body.image_reference))
      return refuse("image_reference must be subject or face");
  }
  if (body.n !== undefined && (!Number.isInteger(body.n) || body.n < 1 || body.n > 9)) return refuse("n must be an integer in [1, 9]");
  if (body.aspect_ratio !== undefined && !IMAGE_RATIOS.includes(body.aspect_ratio)) return refuse("aspect_ratio is invalid");
  if (body.image_fidelity !== undefined && !(typeof body.image_fidelity === "number" && body.image_fidelity >= 0 && body.image_fidelity <= 1)) {
    return refuse("image_fidelity must be in [0, 1]");
  }
  return null;
}

function checkCamera(camera: any): TKlingRefusal | null {
  if (!camera || typeof camera !== "object" || !CAMERA_TYPES.includes(camera.type)) return refuse("camera_control.type is invalid");
  if (camera.type !== "simple") return camera.config === undefined ? null : refuse(`camera_control.config must be empty for type ${camera.type}`);
  const config = camera.config;
  if (!config || typeof config !== "object") return refuse("camera_control.config is required for type simple");
  const keys = Object.keys(config);
  if (keys.some((k) => !CAMERA_AXES.includes(k))) return refuse("camera_control.config has an unknown field");
  const values = keys.map((k) => config[k]);
  if (values.some((v) => typeof v !== "number" || v < -10 || v > 10)) return refuse("camera_control.config values must be in [-10, 10]");
  if (values.filter((v) => v !== 0).length !== 1) return refuse("camera_control.config must set exactly one non-zero field");
  return null;
}

export function checkVideoBody(body: any): TKlingRefusal | null {
  if (!body || typeof body !== "object") return refuse("request body is invalid", 1200);
  const first =
    checkCommon(body) ??
    checkPicture(body.image, "image") ??
    checkText(body.prompt, "prompt", false) ??
    checkText(body.negative_prompt, "negative_prompt", false);
  if (first) return first;
  if (body.image_tail !== undefined) {
    if (/^kling-v1-5\b/.test(body.model_name ?? "")) return refuse(`image_tail is not supported by ${body.model_name}`);
    const tail = checkPicture(body.image_tail, "image_tail");
    if (tail) return tail;
    if (body.camera_control !== undefined) return refuse("image_tail and camera_control cannot be used together");
  }
  if (body.camera_control !== undefined) {
    const camera = checkCamera(body.camera_control);
    if (camera) return camera;
  }
  if (body.mode !== undefined && !["std", "pro"].includes(body.mode)) return refuse("mode must be std or pro");
  if (body.duration !== undefined && !["5", "10"].includes(body.duration)) return refuse('duration must be "5" or "10"');
  if (body.cfg_scale !== undefined && !(typeof body.cfg_scale === "number" && body.cfg_scale >= 0 && body.cfg_scale <= 1))
    return refuse("cfg_scale must be in [0, 1]");
  return null;
}

/** Lip-sync: {input: {video_url | video_id, mode, audio_type, audio_url | audio_file}} (text2video is not something we send). */
export function checkLipsyncBody(body: any): TKlingRefusal | null {
  if (!body || typeof body !== "object" || !body.input || typeof body.input !== "object") return refuse("input is required", 1200);
  const input = body.input;
  const isUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v);
  if (!isUrl(input.video_url) && typeof input.video_id !== "string") return refuse("input.video_url or input.video_id is required");
  if (input.mode !== "audio2video" && input.mode !== "text2video") return refuse("input.mode must be text2video or audio2video");
  if (input.mode === "audio2video") {
    if (input.audio_type === "url" && !isUrl(input.audio_url)) return refuse("input.audio_url is required when audio_type is url");
    if (input.audio_type === "file" && typeof input.audio_file !== "string") return refuse("input.audio_file is required when audio_type is file");
    if (input.audio_type !== "url" && input.audio_type !== "file") return refuse("input.audio_type must be file or url");
  }
  if (body.callback_url !== undefined && (typeof body.callback_url !== "string" || !/^https?:\/\//.test(body.callback_url)))
    return refuse("callback_url is invalid");
  return null;
}
