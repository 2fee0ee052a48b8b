// The announcers (voices) an app can speak its replies in, by the family of voice models that offer
// them: OpenAI's /audio/speech voices on every OpenAI-compatible channel, and on Aliyun DashScope
// channels CosyVoice's voices (or Qwen-TTS's, for a qwen-tts model). A voice of one family means
// nothing to another, so when
// the model that answers is of another family than the app's announcer, or the stored announcer is
// not in the list (free text saved before the list existed), that family's default voice speaks.
// No server imports: the app form lists the same voices and labels them (apps:voices.<id>).
import { z } from "zod";

export const VOICE_FAMILIES = ["openai", "cosyvoice", "qwen_tts"] as const;
export type TVoiceFamily = (typeof VOICE_FAMILIES)[number];

export const VOICES: Record<TVoiceFamily, readonly string[]> = {
  openai: ["alloy", "ash", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer"],
  // CosyVoice's system voices (cosyvoice-v1 names).
  cosyvoice: [
    "longxiaochun",
    "longwan",
    "longcheng",
    "longhua",
    "longxiaoxia",
    "longxiaocheng",
    "longxiaobai",
    "longlaotie",
    "longshu",
    "longshuo",
    "longjing",
    "longmiao",
    "longyue",
    "longfei",
    "loongstella",
    "loongbella",
  ],
  // Qwen-TTS's voices, lower-cased here (the provider takes them capitalised: upstreamVoiceName).
  qwen_tts: ["cherry", "serena", "ethan", "chelsie"],
};

export const DEFAULT_VOICE: Record<TVoiceFamily, string> = { openai: "alloy", cosyvoice: "longxiaochun", qwen_tts: "cherry" };

/** CosyVoice v2 names these voices with a _v2 suffix (longxiaochun_v2); v1 takes them bare. */
const COSYVOICE_V2 = ["longcheng", "longhua", "longshu", "loongbella", "longwan", "longxiaochun", "longxiaoxia"];

/** The voice family a media provider's model speaks in (server/media/providers), or null when it speaks none. */
export function familyOfModel(provider: string, upstreamModel: string): TVoiceFamily | null {
  if (provider === "openai") return "openai";
  if (provider === "dashscope") return /^qwen.*tts/i.test(upstreamModel) ? "qwen_tts" : "cosyvoice";
  return null;
}

/** The name the model's provider knows a listed voice by. */
export function upstreamVoiceName(voice: string, family: TVoiceFamily, upstreamModel: string): string {
  if (family === "qwen_tts") return voice.charAt(0).toUpperCase() + voice.slice(1);
  if (family === "cosyvoice" && /cosyvoice-v2/i.test(upstreamModel)) return `${COSYVOICE_V2.includes(voice) ? voice : DEFAULT_VOICE.cosyvoice}_v2`;
  return voice;
}

/** Whether `id` is one of the listed voices (an app's announcer must be, or empty for the default). */
export function isListedVoice(id: string): boolean {
  return VOICE_FAMILIES.some((family) => VOICES[family].includes(id));
}

/** The voice a model of `family` speaks for an app whose announcer is `speaker`. */
export function pickVoice(speaker: string, family: TVoiceFamily): string {
  const id = speaker.trim();
  return VOICES[family].includes(id) ? id : DEFAULT_VOICE[family];
}

/** The i18n key (apps namespace) of a voice's display label. */
export const voiceLabelKey = (id: string) => `voices.${id}`;

export const ZVoiceOption = z.object({ id: z.string(), family: z.enum(VOICE_FAMILIES) });
export const ZVoiceList = z.object({
  voices: z.array(ZVoiceOption),
  /** The voice that speaks for an app with no announcer chosen (the first family available). */
  default_voice: z.string().nullable(),
});
export type TVoiceList = z.infer<typeof ZVoiceList>;
