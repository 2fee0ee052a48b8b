import { describe, expect, it } from "vitest";
import { checkVoiceFile, pollDelayMs } from "./voices-client";

describe("the voice pages' early checks", () => {
  it("checks a chosen file by size and name, as the server will by content", () => {
    expect(checkVoiceFile({ size: 1000, name: "reading.MP3" })).toBeNull();
    expect(checkVoiceFile({ size: 0, name: "reading.wav" })).toBe("file_empty_or_prohibited");
    expect(checkVoiceFile({ size: 21 * 1024 * 1024, name: "reading.wav" })).toBe("file_too_large");
    expect(checkVoiceFile({ size: 1000, name: "reading.png" })).toBe("audio_type_not_allowed");
  });

  it("asks again soon while a recording is checked, now and then while one trains, never when all settled", () => {
    expect(pollDelayMs([{ state: "ready" }, { state: "checking" }])).toBe(3_000);
    expect(pollDelayMs([{ state: "training" }])).toBe(30_000);
    expect(pollDelayMs([{ state: "ready" }, { state: "train_failed" }])).toBeNull();
  });
});
