// What a render of a video would do now, and what keeps it from starting: the figure (mine, keyed
// and usable), the script (1 to SCRIPT_MAX characters), the voice (a listed announcer some voice
// model speaks, or a ready voice of mine on its own model), its speech price and, when the figure is
// trained and some lip-sync route takes its avatar, the lip-sync's. The quote shows it before anything
// is paid; starting a render and its speech step refuse with the first problem it finds.
import { AppError } from "../errors/app-error";
import * as models from "../models/models.repository";
import { listMediaRoutes, orderLipsyncRoutes, type TAvatarRef } from "../media/provider-routing";
import { countSpeechChars, listVoiceRoutes, priceSpeech, type TOwnVoice } from "../media/speech.service";
import { VOICES } from "../media/voices";
import { priceLipsync, SCRIPT_MAX } from "./digital.schema";
import * as repo from "./videos.repository";
import { ownVoiceIdOf, type TRenderPath, type TRenderProblem } from "./videos.schema";

/** Figure states in which its loop and keyed still exist: a training under way or failed leaves it usable as keyed. */
export const USABLE_FIGURE_STATES: readonly string[] = ["ready", "training", "train_failed"];
export const isUsableFigure = (f: Pick<repo.TVideoFigureRow, "state" | "loopFileKey">) => USABLE_FIGURE_STATES.includes(f.state) && Boolean(f.loopFileKey);

export type TSpeakerChoice = { speaker: string; ownVoice: TOwnVoice | null };

export type TRenderPlan = {
  path: TRenderPath;
  problems: TRenderProblem[];
  figure: repo.TVideoFigureRow | null;
  voice: TSpeakerChoice;
  script: string;
  chars: number;
  estimatedDurationMs: number;
  speechMicro: number;
  lipsyncMicro: number;
};

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
/** A script's spoken length, roughly: about 4 CJK characters or 15 letters a second. */
export function estimateSpeechMs(text: string) {
  let ms = 0;
  for (const ch of text) ms += CJK.test(ch) ? 250 : /\s/.test(ch) ? 40 : 65;
  return Math.max(1_000, ms);
}

/** A trained figure's avatar, when it has one. */
export function avatarOf(figure: Pick<repo.TVideoFigureRow, "kind" | "provider" | "providerAvatarId"> | null): TAvatarRef | null {
  return figure?.kind === "trained" && figure.provider && figure.providerAvatarId ? { provider: figure.provider, avatarId: figure.providerAvatarId } : null;
}

/** Whether some enabled lip-sync model has a route for the avatar (its own provider, or one that re-times any clip). */
export async function canLipsync(accountId: string, avatar: TAvatarRef) {
  for (const m of await models.listModels({ enabledOnly: true })) {
    if (m.kind !== "lipsync") continue;
    if (orderLipsyncRoutes(await listMediaRoutes(m.key, "lipsync", accountId), avatar).length) return true;
  }
  return false;
}

/** The voice a video or an app's figure speaks in; null when its own voice is not mine or not ready. */
export async function chooseVoice(accountId: string, voice: string): Promise<TSpeakerChoice | null> {
  const ownId = ownVoiceIdOf(voice);
  if (ownId === null) return { speaker: voice, ownVoice: null };
  const own = await repo.findVoice(accountId, ownId);
  if (!own || own.state !== "ready" || !own.modelKey || !own.providerVoiceId) return null;
  return { speaker: "", ownVoice: { modelKey: own.modelKey, providerVoiceId: own.providerVoiceId } };
}

async function figureOf(accountId: string, figureId: string | null, problems: TRenderProblem[]) {
  const figure = figureId ? await repo.findFigure(accountId, figureId) : null;
  if (!figure) problems.push("no_figure");
  else if (!isUsableFigure(figure)) problems.push("figure_not_ready");
  return figure;
}

export async function planRender(accountId: string, video: Pick<repo.TVideoRow, "figureId" | "script" | "voice">): Promise<TRenderPlan> {
  const problems: TRenderProblem[] = [];
  const figure = await figureOf(accountId, video.figureId, problems);
  const script = video.script.trim();
  const chars = countSpeechChars(script);
  if (!chars) problems.push("no_script");
  if (script.length > SCRIPT_MAX) problems.push("script_too_long");
  const choice = await chooseVoice(accountId, video.voice);
  if (!choice) problems.push("voice_not_ready");
  const voice = choice ?? { speaker: "", ownVoice: null };
  const routes = await listVoiceRoutes(accountId, voice.ownVoice);
  if (!routes.length) problems.push("no_speech_model");
  // An announcer no model speaks any more would be replaced by a default voice without a word.
  else if (voice.speaker && !routes.some((r) => VOICES[r.family].includes(voice.speaker))) problems.push("voice_not_ready");
  const avatar = avatarOf(figure);
  const path: TRenderPath = avatar && (await canLipsync(accountId, avatar)) ? "lipsync" : "idle_loop";
  const estimatedDurationMs = estimateSpeechMs(script);
  return {
    path,
    problems,
    figure,
    voice,
    script,
    chars,
    estimatedDurationMs,
    // What the speech holds: the most any model that may answer would cost.
    speechMicro: routes.length && chars ? Math.max(...routes.map((r) => priceSpeech(r.model, chars))) : 0,
    lipsyncMicro: path === "lipsync" && chars ? priceLipsync(estimatedDurationMs) : 0,
  };
}

/** The refusal for the first thing that keeps a render from starting. */
export function refusalFor(problem: TRenderProblem): AppError {
  switch (problem) {
    case "no_figure":
    case "figure_not_ready":
      return new AppError("digital_figure_not_ready");
    case "no_script":
    case "script_too_long":
      return new AppError("digital_script_invalid", { params: { max: SCRIPT_MAX } });
    case "voice_not_ready":
      return new AppError("digital_voice_not_ready");
    case "no_speech_model":
      return new AppError("voice_unavailable");
  }
}
