import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_VOICE, familyOfModel, isListedVoice, pickVoice, upstreamVoiceName, VOICE_FAMILIES, VOICES } from "./voices";

describe("the announcer list", () => {
  it("lists OpenAI's nine voices, CosyVoice's and Qwen-TTS's, with no name in two families", () => {
    expect(VOICES.openai).toEqual(["alloy", "ash", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer"]);
    expect(VOICES.cosyvoice).toEqual(expect.arrayContaining(["longxiaochun", "longwan", "longcheng", "longhua", "longxiaoxia", "longshu"]));
    const all = [...VOICES.openai, ...VOICES.cosyvoice, ...VOICES.qwen_tts];
    expect(new Set(all).size).toBe(all.length);
  });

  it("knows listed voices only", () => {
    expect(isListedVoice("nova")).toBe(true);
    expect(isListedVoice("longwan")).toBe(true);
    expect(isListedVoice("Nova")).toBe(false);
    expect(isListedVoice("Robot Bob")).toBe(false);
    expect(isListedVoice("")).toBe(false);
  });

  it("speaks the app's announcer when the model's family has it, else the family's default", () => {
    expect(pickVoice("nova", "openai")).toBe("nova");
    expect(pickVoice(" longwan ", "cosyvoice")).toBe("longwan");
    expect(pickVoice("nova", "cosyvoice")).toBe(DEFAULT_VOICE.cosyvoice);
    expect(pickVoice("longwan", "openai")).toBe(DEFAULT_VOICE.openai);
    expect(pickVoice("Robot Bob", "openai")).toBe("alloy");
    expect(pickVoice("", "cosyvoice")).toBe("longxiaochun");
  });

  it("maps models onto families: OpenAI-compatible and DashScope (CosyVoice or Qwen-TTS) speak, the others do not", () => {
    expect(familyOfModel("openai", "tts-1")).toBe("openai");
    expect(familyOfModel("dashscope", "cosyvoice-v1")).toBe("cosyvoice");
    expect(familyOfModel("dashscope", "qwen-tts-latest")).toBe("qwen_tts");
    for (const p of ["kling", "sdwebui", "comfyui", "offline"]) expect(familyOfModel(p, "x")).toBeNull();
  });

  it("names a voice as its provider knows it: CosyVoice v2 with its suffix, Qwen-TTS capitalised", () => {
    expect(upstreamVoiceName("nova", "openai", "tts-1")).toBe("nova");
    expect(upstreamVoiceName("longwan", "cosyvoice", "cosyvoice-v1")).toBe("longwan");
    expect(upstreamVoiceName("longwan", "cosyvoice", "cosyvoice-v2")).toBe("longwan_v2");
    // A v1-only voice on v2: the default voice's v2 name.
    expect(upstreamVoiceName("longlaotie", "cosyvoice", "cosyvoice-v2")).toBe("longxiaochun_v2");
    expect(upstreamVoiceName("cherry", "qwen_tts", "qwen-tts")).toBe("Cherry");
  });

  it("labels every voice and family in the four languages", () => {
    for (const lng of ["en", "pt", "zh_hans", "zh_hant"]) {
      const apps = JSON.parse(fs.readFileSync(`public/locales/${lng}/apps.json`, "utf8"));
      for (const family of VOICE_FAMILIES) {
        expect(apps.voice_family[family], `${lng} voice_family.${family}`).toBeTruthy();
        for (const id of VOICES[family]) expect(apps.voices[id], `${lng} voices.${id}`).toBeTruthy();
      }
    }
  });
});
