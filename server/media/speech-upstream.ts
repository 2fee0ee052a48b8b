// Speech from the platform's voice models, through the media providers' adapters: every enabled
// model of kind voice, the ones named for speech first (a tts model speaks, a whisper model only
// listens), each with its channels in the gateway's order (an account's own keys first). The first
// route that answers with audio wins; a route that fails is skipped for the next. The voice each
// route speaks in is the app's announcer when that route's family knows it, else the family's default;
// a voice the account cloned (a digital human's) is spoken only by its own model, under its provider's id.
import { logger } from "../lib/logger";
import * as models from "../models/models.repository";
import { readResult } from "./media-job-results";
import { buildProviderContext, listMediaRoutes, type TMediaRoute } from "./provider-routing";
import { getProvider } from "./providers";
import { ProviderError, type TProviderFailure, type TProviderStatus, type TSpeechRequest } from "./providers/provider";
import { familyOfModel, pickVoice, upstreamVoiceName, type TVoiceFamily } from "./voices";

const SPEECH_NAMES = /tts|speech|voice/i;

export type TSpeechModel = { key: string; upstreamModel: string; unitPriceMicro: number };
export type TSpeechRoute = { model: TSpeechModel; route: TMediaRoute; family: TVoiceFamily };
export type TSpokenAudio = { bytes: Buffer; mime: string; ext: string; route: TSpeechRoute; voice: string };

/** Every route that could speak for `accountId`, in the order they are tried. */
export async function listSpeechRoutes(accountId: string): Promise<TSpeechRoute[]> {
  const voice = (await models.listModels({ enabledOnly: true })).filter((m) => m.kind === "voice");
  voice.sort((a, b) => Number(SPEECH_NAMES.test(b.key)) - Number(SPEECH_NAMES.test(a.key)));
  const out: TSpeechRoute[] = [];
  for (const m of voice) {
    for (const route of await listMediaRoutes(m.key, "speech", accountId)) {
      const family = familyOfModel(route.provider, m.upstreamModel);
      if (family) out.push({ model: { key: m.key, upstreamModel: m.upstreamModel, unitPriceMicro: m.unitPriceMicro }, route, family });
    }
  }
  return out;
}

/** Why no route spoke: the last failure seen (a content refusal is worth telling apart). */
export class SpeechFailedError extends Error {
  constructor(
    readonly failure: TProviderFailure,
    message: string,
  ) {
    super(message);
    this.name = "SpeechFailedError";
  }
}

/** host:port of a platform channel, whose result links may point at its own (possibly private) host. */
function trustedHostOf(route: TMediaRoute) {
  if (route.channel.ownerAccountId) return null;
  const url = new URL(route.channel.baseUrl);
  return url.port ? url.host : `${url.host}:${url.protocol === "https:" ? 443 : 80}`;
}

async function speakOn(r: TSpeechRoute, req: TSpeechRequest, jobId: string, signal?: AbortSignal): Promise<Omit<TSpokenAudio, "route" | "voice">> {
  const provider = getProvider(r.route.provider);
  const ctx = { ...buildProviderContext(r.route, { id: jobId, callbackToken: "" }, {}), signal };
  const submitted = await provider.submit(ctx, req);
  // Speech answers at once on every provider we speak to; one poll covers one that queues it.
  const status: TProviderStatus = submitted.status ?? (await provider.poll(ctx, submitted.taskId, req));
  if (status.state === "failed") throw new ProviderError(status.failure, status.message ?? "the provider could not speak");
  if (status.state !== "succeeded" || !status.outputs.length) throw new ProviderError("upstream", `the speech task is ${status.state}`);
  const file = await readResult(status.outputs[0], trustedHostOf(r.route));
  if (file.kind !== "audio") throw new ProviderError("upstream", "the speech answer is no audio");
  return { bytes: file.bytes, mime: file.mime, ext: file.ext };
}

/** The voice a route speaks in, as its provider names it: a cloned voice's own id, else a listed announcer's. */
function voiceOn(route: TSpeechRoute, speaker: string | { ownVoiceId: string }) {
  if (typeof speaker !== "string") return { voice: speaker.ownVoiceId, upstream: speaker.ownVoiceId };
  const voice = pickVoice(speaker, route.family);
  return { voice, upstream: upstreamVoiceName(voice, route.family, route.model.upstreamModel) };
}

/**
 * Speaks `text` on the first route that answers; SpeechFailedError when none does. `speaker` is an
 * announcer's id, or a voice cloned at the routes' provider (the caller gives only its model's routes).
 */
export async function speakOnRoutes(
  routes: TSpeechRoute[],
  text: string,
  speaker: string | { ownVoiceId: string },
  jobId: string,
  signal?: AbortSignal,
): Promise<TSpokenAudio> {
  let last: SpeechFailedError = new SpeechFailedError("upstream", "no voice model speaks");
  for (const route of routes) {
    if (signal?.aborted) break;
    const { voice, upstream } = voiceOn(route, speaker);
    const upstreamModel = route.model.upstreamModel;
    try {
      const req: TSpeechRequest = { kind: "speech", model: upstreamModel, text, voice: upstream, format: "mp3" };
      const audio = await speakOn(route, req, jobId, signal);
      return { ...audio, route, voice };
    } catch (err) {
      const failure = err instanceof ProviderError ? err.failure : "upstream";
      logger.warn({ err, channelId: route.route.channel.id, model: route.model.key }, "speech: a voice channel failed");
      last = new SpeechFailedError(failure, err instanceof Error ? err.message : String(err));
      // The words themselves were refused: another channel would refuse them too.
      if (failure === "content_input") break;
    }
  }
  throw last;
}

/** The voice families some enabled voice model speaks in for `accountId`. */
export async function listSpeechFamilies(accountId: string): Promise<TVoiceFamily[]> {
  const families = new Set((await listSpeechRoutes(accountId)).map((r) => r.family));
  return [...families];
}
