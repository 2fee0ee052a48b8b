// How the channel test button checks a media provider's channel. Kling, DashScope, SD WebUI and
// ComfyUI answer no chat completion, so their test is a cheap authenticated request of their own
// protocol. The media area knows those protocols and depends on this one, so the probe is handed in
// by whoever mounts the routes (server/http/api-router.ts) rather than imported from here.
import type { TMediaChannelType } from "./models.schema";

export type TChannelProbeTarget = {
  type: TMediaChannelType;
  baseUrl: string;
  /** The channel's key as entered (may be empty for the self-hosted servers). */
  secret: string;
  /** An account's own channel: its base URL is the account's choice and goes through the SSRF guard. */
  guarded: boolean;
};

/** keyRefused: the provider refused the key itself, which takes the channel out of rotation as a banned chat key does. */
export type TChannelProbeResult = { ok: true } | { ok: false; error: string; keyRefused: boolean };

export type TChannelProbe = (target: TChannelProbeTarget) => Promise<TChannelProbeResult>;
