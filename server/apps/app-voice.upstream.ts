// The voice model's transcription (OpenAI's /audio/transcriptions) over the same channels the
// gateway routes chat through: an enabled model of kind "voice", its enabled channels in the
// gateway's order (an account's own keys first, then by priority and weight), each key opened only
// when used. A channel that fails is skipped for the next; none answering, or no voice model at
// all, is voice_unavailable. Speech goes the other way, billed, through the media providers
// (server/media/speech.service.ts).
import { fetch, FormData, type Dispatcher } from "undici";
import { AppError } from "../errors/app-error";
import { logger } from "../lib/logger";
import { openSecret } from "../lib/secret-box";
import { keepChatChannels, orderCandidates } from "../models/channel-selection";
import { getGuardedDispatcher } from "../models/guarded-dispatcher";
import * as models from "../models/models.repository";

export type TVoiceUse = "transcribe" | "speech";
const PREFERRED: Record<TVoiceUse, RegExp> = { transcribe: /whisper|transcri|asr|stt/i, speech: /tts|speech|voice/i };
const TIMEOUT_MS = 60_000;

/** The voice models to try, the best named for the use first (a whisper model transcribes, a tts speaks). */
async function listVoiceRoutes(use: TVoiceUse, accountId: string | null) {
  const voice = (await models.listModels({ enabledOnly: true })).filter((m) => m.kind === "voice");
  voice.sort((a, b) => Number(PREFERRED[use].test(b.key)) - Number(PREFERRED[use].test(a.key)));
  const routes = [];
  for (const model of voice) {
    const channels = await models.listEnabledChannelsForModel(model.key, accountId);
    // Transcription is OpenAI's /audio/transcriptions: media providers' own channels do not speak it.
    const usable = keepChatChannels(channels).filter((c) => c.type !== "offline");
    const ordered = [...orderCandidates(usable.filter((c) => c.ownerAccountId)), ...orderCandidates(usable.filter((c) => !c.ownerAccountId))];
    for (const channel of ordered) routes.push({ model, channel });
  }
  return routes;
}

/** Whether any voice model could answer (checked before reading an upload). */
export async function hasVoiceRoute(use: TVoiceUse, accountId: string | null) {
  return (await listVoiceRoutes(use, accountId)).length > 0;
}

type TPost = (upstreamModel: string) => { path: string; body: FormData | string; json: boolean };

async function postVoice(use: TVoiceUse, accountId: string | null, build: TPost): Promise<Response> {
  const routes = await listVoiceRoutes(use, accountId);
  if (routes.length === 0) throw new AppError("voice_unavailable");
  for (const { model, channel } of routes) {
    const { path, body, json } = build(model.upstreamModel);
    try {
      const res = await fetch(`${channel.baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${openSecret(channel.keyEncrypted)}`, ...(json ? { "content-type": "application/json" } : {}) },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        // An account's own base URL must not reach into our network (the SSRF guard).
        ...(channel.ownerAccountId ? { dispatcher: getGuardedDispatcher(channel.baseUrl) as Dispatcher } : {}),
      } as Parameters<typeof fetch>[1]);
      if (res.ok) return res as unknown as Response;
      logger.warn({ channelId: channel.id, status: res.status, body: (await res.text().catch(() => "")).slice(0, 300) }, `voice ${use}: the upstream refused`);
    } catch (err) {
      logger.warn({ err, channelId: channel.id }, `voice ${use}: the upstream failed`);
    }
  }
  throw new AppError("voice_unavailable");
}

/** Speech to text: the upstream's `text`. */
export async function transcribeAudio(audio: { bytes: Buffer; mime: string; filename: string }, accountId: string | null): Promise<string> {
  const res = await postVoice("transcribe", accountId, (upstreamModel) => {
    const form = new FormData();
    form.set("model", upstreamModel);
    form.set("file", new Blob([new Uint8Array(audio.bytes)], { type: audio.mime }), audio.filename);
    return { path: "/audio/transcriptions", body: form, json: false };
  });
  const parsed = (await res.json().catch(() => null)) as { text?: unknown } | null;
  if (typeof parsed?.text !== "string") throw new AppError("voice_unavailable");
  return parsed.text;
}
