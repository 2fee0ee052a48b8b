// The calls DashScope takes, built from our requests. Drawing and animating are asynchronous tasks
// (POST with X-DashScope-Async: enable, then GET /api/v1/tasks/{task_id}); speech is one
// synchronous call that answers a link to the audio.
import type { TImageRequest, TInputImage, TSpeechRequest, TVideoRequest } from "./provider";

export type TDashscopeCall = { path: string; body: Record<string, unknown>; async: boolean };

export const TEXT2IMAGE_PATH = "/api/v1/services/aigc/text2image/image-synthesis";
/** Image-to-video from a first frame (wanx2.1-i2v-turbo/plus, wan2.x-i2v): input.img_url. */
export const IMAGE_TO_VIDEO_PATH = "/api/v1/services/aigc/video-generation/video-synthesis";
/** First-and-last-frame video (wanx2.1-kf2v-plus, wan2.2-kf2v-flash): input.first_frame_url and last_frame_url. */
export const KEYFRAMES_TO_VIDEO_PATH = "/api/v1/services/aigc/image2video/video-synthesis";
/** CosyVoice's HTTP synthesis: input {text, voice, format, sample_rate}, answering output.audio.url. */
export const COSYVOICE_PATH = "/api/v1/services/audio/tts/SpeechSynthesizer";
/** Qwen-TTS speaks through the multimodal generation endpoint: input {text, voice}, answering output.audio.url. */
export const QWEN_TTS_PATH = "/api/v1/services/aigc/multimodal-generation/generation";
export const TASKS_PATH = "/api/v1/tasks";

/** wanx-v1 draws only these sizes; the wan 2.x models take any side from 512 to 1440. */
const WANX_V1_SIZES: ReadonlyArray<readonly [number, number]> = [
  [1024, 1024],
  [720, 1280],
  [768, 1152],
  [1280, 720],
];
const FREE_SIDE_MIN = 512;
const FREE_SIDE_MAX = 1440;
const SPEECH_SAMPLE_RATE = 24000;

/** A picture inline, since our file store may not be reachable from DashScope. */
export function toDataUrl(image: TInputImage) {
  return `data:${image.mime};base64,${image.bytes.toString("base64")}`;
}

/** DashScope's "W*H" for the size asked: the nearest shape wanx-v1 draws, or the size itself brought within 512-1440 a side. */
export function pickImageSize(model: string, width: number, height: number) {
  if (model === "wanx-v1") {
    const ratio = width / height;
    const [w, h] = WANX_V1_SIZES.reduce((best, s) => (Math.abs(Math.log(s[0] / s[1] / ratio)) < Math.abs(Math.log(best[0] / best[1] / ratio)) ? s : best));
    return `${w}*${h}`;
  }
  const shrink = Math.min(1, FREE_SIDE_MAX / Math.max(width, height));
  const grow = Math.max(1, FREE_SIDE_MIN / Math.min(width, height));
  const scale = shrink < 1 ? shrink : grow;
  const side = (n: number) => Math.min(FREE_SIDE_MAX, Math.max(FREE_SIDE_MIN, Math.round(n * scale)));
  return `${side(width)}*${side(height)}`;
}

export function buildImageCall(req: TImageRequest): TDashscopeCall {
  const input: Record<string, unknown> = { prompt: req.prompt };
  if (req.negativePrompt) input.negative_prompt = req.negativePrompt;
  const parameters: Record<string, unknown> = { size: pickImageSize(req.model, req.width, req.height), n: req.count };
  if (req.style) parameters.style = req.style;
  if (req.seed !== undefined) parameters.seed = req.seed;
  return { path: TEXT2IMAGE_PATH, body: { model: req.model, input, parameters }, async: true };
}

/**
 * A tail frame means the first-and-last-frame models and their own endpoint; a first frame alone
 * goes to image-to-video. DashScope has no camera moves, so the motion is not sent, and the
 * resolution is left to the model's default (the 2.1 and 2.x models offer different sets).
 */
export function buildVideoCall(req: TVideoRequest): TDashscopeCall {
  const input: Record<string, unknown> = {};
  if (req.prompt) input.prompt = req.prompt;
  if (req.negativePrompt) input.negative_prompt = req.negativePrompt;
  const parameters = { duration: req.duration };
  if (req.tailFrame) {
    input.first_frame_url = toDataUrl(req.firstFrame);
    input.last_frame_url = toDataUrl(req.tailFrame);
    return { path: KEYFRAMES_TO_VIDEO_PATH, body: { model: req.model, input, parameters }, async: true };
  }
  input.img_url = toDataUrl(req.firstFrame);
  return { path: IMAGE_TO_VIDEO_PATH, body: { model: req.model, input, parameters }, async: true };
}

export function isQwenTts(model: string) {
  return /^qwen.*tts/i.test(model);
}

export function buildSpeechCall(req: TSpeechRequest): TDashscopeCall {
  if (isQwenTts(req.model)) return { path: QWEN_TTS_PATH, body: { model: req.model, input: { text: req.text, voice: req.voice } }, async: false };
  const input = { text: req.text, voice: req.voice, format: req.format, sample_rate: SPEECH_SAMPLE_RATE };
  return { path: COSYVOICE_PATH, body: { model: req.model, input }, async: false };
}
