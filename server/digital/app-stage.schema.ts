// What the phone page of a digital-human app shows and asks: the stage (the figure over its
// background, as the app's scene sets it) and a reply's lip-synced clip. Shared by browser and server.
import { z } from "zod";
import type { TKeySettings, TOrientation, TPlacement } from "./digital.schema";

export type TStageBackground = { kind: "color"; color: string } | { kind: "image" | "video"; url: string };

export type TStageFigure = {
  name: string;
  /** The filmed loop (still on its green: the page keys it as the composite does). */
  loopUrl: string;
  /** The keyed still, shown before the loop plays. */
  posterUrl: string | null;
  /** The greeting video, played once when the page opens. */
  greetingUrl: string | null;
  key: TKeySettings;
};

export type TH5Stage = {
  orientation: TOrientation;
  placement: TPlacement;
  background: TStageBackground;
  /** Null when the scene names no figure, or one that is not usable now. */
  figure: TStageFigure | null;
  /** The figure is trained and a lip-sync model can take it: a reply may come as a lip-synced clip. */
  lipsync: boolean;
};

export const ZStageInput = z.object({ app_id: z.string().min(1).max(64) });
export const ZClipInput = ZStageInput.extend({ message_id: z.string().min(1).max(64) });
export type TClipInput = z.infer<typeof ZClipInput>;

/**
 * A reply's clip: `unavailable` when the reply is spoken over the idle loop instead (the figure is
 * not trained, no lip-sync model takes it, or the consumer's use is not one a plan pays for);
 * `preparing` until the lip-sync job exists; then the job's own states, `done` with the clip's URL.
 */
export const CLIP_STATES = ["unavailable", "preparing", "queued", "generating", "done", "failed"] as const;
export type TClipState = (typeof CLIP_STATES)[number];
export type TClipView = { state: TClipState; url: string | null; reason?: "figure" | "plan" | "speech" };

/** The stage's open answer: whether the digital human is running for this app now. */
export type TStageOpen = { running: boolean };
