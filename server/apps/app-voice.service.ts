// Voice and image input of an app (H5): transcribe a recorded clip, keep a picture the visitor
// sends, and put a turn's pictures into the user message (spoken replies: app-speech.service.ts).
// Each call first loads the app as the consumer may open it and checks its input or output modes;
// every refusal comes before any upstream is asked or any file is written.
import { AppError } from "../errors/app-error";
import { getFileStore } from "../uploads/file-store";
import { IMAGE_MAX_BYTES, IMAGE_SIDES, MB, PER_FORM, type TImageLimits } from "../uploads/upload-limits";
import { acceptImage, requestPictureDerivatives, storeFile, toPublicFileUrl } from "../uploads/uploads.service";
import type { TTurn } from "../turns/turn";
import type { TConsumer } from "./app-entitlements.service";
import { loadOpenableApp } from "./app-access.service";
import { defaultRateStore, hitRateLimit } from "./rate-limit";
import { hasVoiceRoute, transcribeAudio } from "./app-voice.upstream";

export const MAX_AUDIO_BYTES = 20 * MB;
/** A chat picture: JPG or PNG up to 10 MB (the H5 input checks the same), 300-5000 px a side. */
export const CHAT_IMAGE_LIMITS: TImageLimits = { maxBytes: IMAGE_MAX_BYTES.medium, ...IMAGE_SIDES };
/** Per consumer and minute: a person talks or sends pictures far slower than this. */
const RATE = { voice: 30, image: 20 } as const;

type TModeApp = Awaited<ReturnType<typeof loadOpenableApp>>;

export async function loadAppWithMode(appId: string | undefined, consumer: TConsumer, mode: { input?: string; output?: string }): Promise<TModeApp> {
  const app = await loadOpenableApp(appId || undefined, consumer);
  if (mode.input && !app.inputModes.includes(mode.input)) throw new AppError("no_permission");
  if (mode.output && !app.outputModes.includes(mode.output)) throw new AppError("no_permission");
  return app;
}

export async function limitRate(kind: keyof typeof RATE, consumer: TConsumer) {
  const who = consumer.account ? `a:${consumer.account.id}` : `v:${consumer.visitorId ?? "none"}`;
  const rate = await hitRateLimit(defaultRateStore(), `app-${kind}:${who}`, RATE[kind]);
  if (!rate.allowed) throw new AppError("rate_limited", { data: { retry_after: rate.retryAfterSeconds } });
}

/** Settled before the upload is read: the app takes voice, a voice model answers, within the rate. */
export async function checkTranscribe(appId: string | undefined, consumer: TConsumer) {
  const app = await loadAppWithMode(appId, consumer, { input: "voice" });
  if (!(await hasVoiceRoute("transcribe", app.ownerAccountId))) throw new AppError("voice_unavailable");
  await limitRate("voice", consumer);
  return app;
}

/** The audio formats browsers record and people upload, told by their content. */
export function sniffAudio(bytes: Buffer | undefined): { mime: string; ext: string } | null {
  if (!bytes || bytes.length < 12) return null;
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString("latin1");
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { mime: "audio/webm", ext: "webm" };
  if (ascii(0, 4) === "OggS") return { mime: "audio/ogg", ext: "ogg" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return { mime: "audio/wav", ext: "wav" };
  if (ascii(4, 8) === "ftyp") return { mime: "audio/mp4", ext: "m4a" };
  if (ascii(0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return { mime: "audio/mpeg", ext: "mp3" };
  return null;
}

export async function transcribeForApp(app: TModeApp, bytes: Buffer | undefined): Promise<{ text: string }> {
  if (!bytes?.length) throw new AppError("file_empty_or_prohibited");
  if (bytes.length > MAX_AUDIO_BYTES) throw new AppError("file_too_large", { data: { max_bytes: MAX_AUDIO_BYTES } });
  const audio = sniffAudio(bytes);
  if (!audio) throw new AppError("file_type_not_allowed");
  return { text: await transcribeAudio({ bytes, mime: audio.mime, filename: `voice.${audio.ext}` }, app.ownerAccountId) };
}

export async function checkImageUpload(appId: string | undefined, consumer: TConsumer) {
  const app = await loadAppWithMode(appId, consumer, { input: "image" });
  await limitRate("image", consumer);
  return app;
}

/** A picture sent to the app, kept under the app's public images (its key is unguessable). */
export async function storeAppImage(app: TModeApp, bytes: Buffer | undefined) {
  const image = acceptImage(bytes, CHAT_IMAGE_LIMITS);
  const key = await storeFile(`images/app/${app.id}`, image);
  await requestPictureDerivatives(key);
  return { url: toPublicFileUrl(key) };
}

const IMAGE_URL = /^(?:https?:\/\/[^/]+)?\/files\/(images\/app\/([A-Za-z0-9_-]+)\/[A-Za-z0-9._/-]+)$/;

/** The stored keys of a turn's pictures: only ones this server kept for this app, and only when the app takes pictures. */
export function assertTurnImages(app: { id: string; inputModes?: string[] }, images: string[]): string[] {
  if (images.length === 0) return [];
  if (!app.inputModes?.includes("image")) throw new AppError("no_permission");
  if (images.length > PER_FORM.images) throw new AppError("too_many_files", { params: { max: PER_FORM.images }, data: { max: PER_FORM.images } });
  return images.map((url) => {
    const m = IMAGE_URL.exec(url);
    if (!m || m[2] !== app.id || m[1].includes(".."))
      throw new AppError("validation_failed", { data: { fields: [{ path: "images", message: "validation.image_unknown" }] } });
    return m[1];
  });
}

/**
 * The turn's user message as OpenAI content parts: its text, then each picture as a data URL (an
 * upstream cannot be expected to reach this server). A turn without pictures stays as it was.
 */
export async function attachTurnImages(turn: TTurn, keys: string[]) {
  if (keys.length === 0) return;
  const urls = await Promise.all(keys.map(readAsDataUrl));
  const user = [...turn.messages].reverse().find((m) => m.role === "user");
  if (!user) return;
  const text = typeof user.content === "string" ? user.content : "";
  user.content = [{ type: "text", text }, ...urls.map((url) => ({ type: "image_url", image_url: { url } }))];
}

async function readAsDataUrl(key: string) {
  const file = await getFileStore().get(key);
  if (!file) throw new AppError("validation_failed", { data: { fields: [{ path: "images", message: "validation.image_unknown" }] } });
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  return `data:${file.contentType};base64,${Buffer.concat(chunks).toString("base64")}`;
}
