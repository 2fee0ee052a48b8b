import { describe, expect, it } from "vitest";
import { acceptVoiceFile, sniffVoiceFile } from "./voice-sample-file";

const head = (...parts: (string | number[])[]) =>
  Buffer.concat([...parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))), Buffer.alloc(64)]);

describe("voice recordings told by their bytes", () => {
  it.each([
    ["webm", head([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01], "webm")],
    ["ogg", head("OggS")],
    ["wav", head("RIFF", [0, 0, 0, 0], "WAVE")],
    ["flac", head("fLaC")],
    ["m4a", head([0, 0, 0, 0x20], "ftypM4A ")],
    ["mp3", head("ID3")],
    ["mp3", head([0xff, 0xfb, 0x90])],
    ["aac", head([0xff, 0xf1, 0x50])],
  ])("knows %s", (kind, bytes) => expect(sniffVoiceFile(bytes)).toBe(kind));

  it("knows no picture, HEIF still, Matroska video or text as a recording", () => {
    expect(sniffVoiceFile(head([0x89], "PNG"))).toBeNull();
    expect(sniffVoiceFile(head([0, 0, 0, 0x20], "ftypheic"))).toBeNull();
    expect(sniffVoiceFile(head([0x1a, 0x45, 0xdf, 0xa3], "matroska"))).toBeNull();
    expect(sniffVoiceFile(head("just some text here"))).toBeNull();
    expect(sniffVoiceFile(head([0xff, 0xe0]))).toBeNull();
  });

  it("refuses what the name or type says is something else, and answers the stored type of what it takes", () => {
    const wav = head("RIFF", [0, 0, 0, 0], "WAVE");
    expect(() => acceptVoiceFile({ bytes: wav, filename: "voice.txt", mimeType: "" })).toThrow(expect.objectContaining({ code: "audio_type_not_allowed" }));
    expect(() => acceptVoiceFile({ bytes: wav, filename: "voice.wav", mimeType: "image/png" })).toThrow(
      expect.objectContaining({ code: "audio_type_not_allowed" }),
    );
    expect(() => acceptVoiceFile({ bytes: Buffer.alloc(0), filename: "voice.wav", mimeType: "audio/wav" })).toThrow(
      expect.objectContaining({ code: "file_empty_or_prohibited" }),
    );
    expect(acceptVoiceFile({ bytes: wav, filename: "recording", mimeType: "application/octet-stream" })).toMatchObject({
      kind: "wav",
      mime: "audio/wav",
      ext: "wav",
    });
    expect(acceptVoiceFile({ bytes: head("OggS"), filename: "recording.opus", mimeType: "audio/ogg;codecs=opus" })).toMatchObject({ mime: "audio/ogg" });
  });
});
