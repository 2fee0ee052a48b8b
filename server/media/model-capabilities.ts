// What a media model can do, by its provider and upstream name: the drawing and video screens offer
// only these fields, and the server refuses anything else before a provider is paid. No server
// imports: the pages use this file too.
import { ASPECT_RATIOS, IMAGE_COUNT_MAX, VIDEO_DURATIONS, type TMediaCapabilities, type TMediaJobKind } from "./generation.schema";

/** Stable Diffusion WebUI's and ComfyUI's common samplers (their names as the APIs take them). */
export const SD_SAMPLERS = ["Euler a", "Euler", "DPM++ 2M", "DPM++ 2M Karras", "DPM++ SDE Karras", "DDIM", "UniPC"] as const;
export const COMFY_SAMPLERS = ["euler_ancestral", "euler", "dpmpp_2m", "dpmpp_sde", "ddim", "uni_pc"] as const;

const NONE: TMediaCapabilities = {
  tailFrame: false,
  durations: [],
  cameraMotion: false,
  cameraMotionWithTailFrame: false,
  freeSize: false,
  aspectRatios: ASPECT_RATIOS,
  maxCount: 1,
  negativePrompt: false,
  samplers: [],
  steps: false,
  guidance: false,
  quality: false,
  styles: [],
  reference: false,
};

function imageCapabilities(provider: string): TMediaCapabilities {
  switch (provider) {
    case "sdwebui":
      return { ...NONE, freeSize: true, maxCount: IMAGE_COUNT_MAX, negativePrompt: true, samplers: SD_SAMPLERS, steps: true, guidance: true, reference: true };
    case "comfyui":
      return { ...NONE, freeSize: true, maxCount: IMAGE_COUNT_MAX, negativePrompt: true, samplers: COMFY_SAMPLERS, steps: true, guidance: true };
    case "kling":
      return { ...NONE, maxCount: IMAGE_COUNT_MAX, negativePrompt: true, reference: true };
    case "dashscope":
      return {
        ...NONE,
        maxCount: IMAGE_COUNT_MAX,
        negativePrompt: true,
        styles: ["<auto>", "<photography>", "<anime>", "<3d cartoon>", "<watercolor>", "<sketch>"],
      };
    default:
      return { ...NONE, maxCount: IMAGE_COUNT_MAX, quality: true, styles: ["vivid", "natural"] };
  }
}

function videoCapabilities(provider: string, upstreamModel: string): TMediaCapabilities {
  const base = { ...NONE, durations: VIDEO_DURATIONS, negativePrompt: true, aspectRatios: [] };
  if (provider === "kling") {
    // kling-v1-5 animates from a first frame only; the other versions also end on a tail frame.
    return { ...base, tailFrame: !/^kling-v1-5\b/.test(upstreamModel), cameraMotion: true };
  }
  return base;
}

export function getCapabilities(kind: TMediaJobKind | "voice", provider: string, upstreamModel: string): TMediaCapabilities {
  if (kind === "image") return imageCapabilities(provider);
  if (kind === "video") return videoCapabilities(provider, upstreamModel);
  return NONE;
}

/**
 * Whether a voice model can clone a voice from a recording: DashScope's CosyVoice voice enrollment
 * makes voices for the CosyVoice models only (its target_model), not for Sambert or Qwen TTS.
 */
export function clonesVoice(provider: string, upstreamModel: string) {
  return provider === "dashscope" && /^cosyvoice-v\d/i.test(upstreamModel);
}
