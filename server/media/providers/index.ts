// The media providers by name, and which one speaks for a channel: Kling, DashScope, SD WebUI,
// ComfyUI, HeyGen and HeyGem channels have their own protocols; every other channel type is
// OpenAI-compatible.
import type { TMediaJobKind } from "../generation.schema";
import { isMediaChannelType } from "../../models/models.schema";
import { comfyuiProvider } from "./comfyui";
import { dashscopeProvider } from "./dashscope";
import { heygemProvider } from "./heygem";
import { heygenProvider } from "./heygen";
import { klingProvider } from "./kling";
import { openaiMediaProvider } from "./openai-media";
import type { TMediaProvider, TProviderName } from "./provider";
import { sdWebuiProvider } from "./sd-webui";

const PROVIDERS: Record<TProviderName, TMediaProvider> = {
  kling: klingProvider,
  dashscope: dashscopeProvider,
  openai: openaiMediaProvider,
  sdwebui: sdWebuiProvider,
  comfyui: comfyuiProvider,
  heygen: heygenProvider,
  heygem: heygemProvider,
};

/** The provider a channel of this type speaks through; null for the offline channel, which makes no media. */
export function providerNameForChannel(channelType: string): TProviderName | null {
  if (channelType === "offline") return null;
  if (isMediaChannelType(channelType)) return channelType;
  return "openai";
}

export function getProvider(name: TProviderName): TMediaProvider {
  return PROVIDERS[name];
}

export function providerMakes(name: TProviderName, kind: TMediaJobKind) {
  return PROVIDERS[name].kinds.includes(kind);
}
