// The scene both editors edit: the screen's orientation, the figure and where it stands, what is
// behind it and the voice. A video keeps it in its own columns; a digital-human app in its settings.
import { DEFAULT_PLACEMENT, type TOrientation, type TPlacement } from "../../../server/digital/digital.schema";
import type { TFigureView } from "../../../server/digital/figures.schema";
import type { TDigitalVideo } from "../../../server/digital/videos.schema";
import { clampPlacement } from "./placement";

export type TBackground = { id: string; kind: "image" | "video"; url: string; name: string; thumbUrl: string | null };

export type TScene = {
  orientation: TOrientation;
  figureId: string | null;
  placement: TPlacement;
  background: TBackground | null;
  backgroundColor: string;
  /** A stock announcer's id, `own:<DigitalVoice id>`, or "" for none chosen. */
  voice: string;
};

export const DEFAULT_BACKGROUND_COLOR = "#ffffff";
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
export const isHexColor = (s: unknown): s is string => typeof s === "string" && HEX_COLOR.test(s);

export function sceneOfVideo(video: TDigitalVideo): TScene {
  return {
    orientation: video.orientation,
    figureId: video.figure?.id ?? null,
    placement: clampPlacement(video.placement),
    background: video.background
      ? { id: video.background.id, kind: video.background.kind, url: video.background.url, name: video.background.name, thumbUrl: video.background.thumbUrl }
      : null,
    backgroundColor: isHexColor(video.backgroundColor) ? video.backgroundColor : DEFAULT_BACKGROUND_COLOR,
    voice: video.voice,
  };
}

/** The scene an app's settings describe; the background item is only named there (its file is looked up). */
export function sceneOfAppSettings(settings: Record<string, unknown>): { scene: TScene; backgroundItemId: string | null } {
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    scene: {
      orientation: settings.orientation === "horizontal" ? "horizontal" : "vertical",
      figureId: str(settings.figure_id) || null,
      placement: clampPlacement((settings.placement as Partial<TPlacement> | undefined) ?? DEFAULT_PLACEMENT),
      background: null,
      backgroundColor: isHexColor(settings.background_color) ? settings.background_color : DEFAULT_BACKGROUND_COLOR,
      voice: str(settings.voice_id),
    },
    backgroundItemId: str(settings.background_item_id) || null,
  };
}

/** The app's settings with the scene written in; settings the editor does not know are kept. */
export function appSettingsWithScene(settings: Record<string, unknown>, scene: TScene): Record<string, unknown> {
  const { background_item_id: _old, ...rest } = settings;
  return {
    ...rest,
    figure_id: scene.figureId ?? "",
    voice_id: scene.voice,
    orientation: scene.orientation,
    placement: scene.placement,
    background_color: scene.backgroundColor,
    ...(scene.background ? { background_item_id: scene.background.id } : {}),
  };
}

/** Figures a scene can show: keyed (a still to place) and usable; a failed training leaves the figure usable. */
export const isUsableFigure = (f: Pick<TFigureView, "state" | "posterUrl">) => ["ready", "training", "train_failed"].includes(f.state) && Boolean(f.posterUrl);

/** A figure speaks the script with moving lips only when a provider trained it. */
export const isTrainedFigure = (f: Pick<TFigureView, "kind">) => f.kind === "trained";
