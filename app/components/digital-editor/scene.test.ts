import { describe, expect, it } from "vitest";
import { ZDigitalHumanSettings } from "../../../server/apps/apps.schema";
import { appSettingsWithScene, isUsableFigure, sceneOfAppSettings, type TScene } from "./scene";

const scene: TScene = {
  orientation: "horizontal",
  figureId: "fig1",
  placement: { x: 0.3, y: 0.6, scale: 1.2 },
  background: { id: "item1", kind: "image", url: "/files/media/a/bg.png", name: "bg.png", thumbUrl: null },
  backgroundColor: "#102030",
  voice: "own:v1",
};

describe("an app's scene in its settings", () => {
  it("writes the scene into the settings, keeping what the editor does not know, and reads it back", () => {
    const settings = appSettingsWithScene({ figure_id: "old", greeting: "hi" }, scene);
    expect(settings).toEqual({
      figure_id: "fig1",
      voice_id: "own:v1",
      orientation: "horizontal",
      placement: { x: 0.3, y: 0.6, scale: 1.2 },
      background_color: "#102030",
      background_item_id: "item1",
      greeting: "hi",
    });
    expect(ZDigitalHumanSettings.safeParse(settings).success).toBe(true);
    expect(sceneOfAppSettings(settings)).toEqual({ scene: { ...scene, background: null }, backgroundItemId: "item1" });
  });

  it("forgets the background item when the colour is chosen instead", () => {
    const settings = appSettingsWithScene({ background_item_id: "item1" }, { ...scene, background: null, figureId: null });
    expect(settings).not.toHaveProperty("background_item_id");
    expect(settings.figure_id).toBe("");
  });

  it("reads settings saved before the editor existed with the defaults", () => {
    expect(sceneOfAppSettings({ figure_id: "f", orientation: "sideways", placement: { x: 7 }, background_color: "red" }).scene).toEqual({
      orientation: "vertical",
      figureId: "f",
      placement: { x: 1, y: 0.55, scale: 0.9 },
      background: null,
      backgroundColor: "#ffffff",
      voice: "",
    });
  });

  it("offers figures that have a keyed still and are usable", () => {
    expect(isUsableFigure({ state: "ready", posterUrl: "/p.png" })).toBe(true);
    expect(isUsableFigure({ state: "train_failed", posterUrl: "/p.png" })).toBe(true);
    expect(isUsableFigure({ state: "ready", posterUrl: null })).toBe(false);
    expect(isUsableFigure({ state: "checking", posterUrl: "/p.png" })).toBe(false);
  });
});
