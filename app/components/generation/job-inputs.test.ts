import { describe, expect, it } from "vitest";
import { getCapabilities } from "../../../server/media/model-capabilities";
import type { TMediaModel } from "../../../server/media/generation.schema";
import { chosenPicture } from "./chosen-picture";
import {
  buildImageInput,
  buildVideoInput,
  cameraMotionAllowed,
  CUSTOM_SIZE,
  fitImageValues,
  initialImageValues,
  priceOfImage,
  priceOfVideo,
  toFormField,
  type TImageFormValues,
  type TVideoFormValues,
} from "./job-inputs";

const sd = getCapabilities("image", "sdwebui", "sd-xl");
const kling = getCapabilities("image", "kling", "kling-v1");
const openai = getCapabilities("image", "openai", "dall-e-3");
const klingVideo = getCapabilities("video", "kling", "kling-v1-6");
const klingV15 = getCapabilities("video", "kling", "kling-v1-5");

const model = (key: string, kind: "image" | "video", unitPriceMicro: number, capabilities = kind === "image" ? sd : klingVideo): TMediaModel => ({
  key,
  name: key,
  kind,
  provider: "x",
  unitPriceMicro,
  capabilities,
});

const image = (over: Partial<TImageFormValues> = {}): TImageFormValues => ({ ...initialImageValues(model("sd", "image", 200_000)), prompt: "a fox", ...over });
const video = (over: Partial<TVideoFormValues> = {}): TVideoFormValues => ({
  model: "kv",
  prompt: "",
  firstFrame: { id: "m1", url: "/f/1.png" },
  tailFrame: null,
  cameraMotion: "none",
  duration: 5,
  mode: "std",
  ...over,
});

describe("the drawing form's request", () => {
  it("sends the sampler settings a Stable Diffusion model offers", () => {
    const built = buildImageInput(image({ negativePrompt: " blur ", sampler: "DDIM", steps: 40, guidance: 6.5, count: 3 }), sd);
    expect(built).toEqual({
      ok: true,
      input: expect.objectContaining({
        model: "sd",
        prompt: "a fox",
        negativePrompt: "blur",
        sampler: "DDIM",
        steps: 40,
        guidance: 6.5,
        count: 3,
        quality: "standard",
      }),
    });
  });

  it("leaves out what the model does not offer, even when typed before switching models", () => {
    const built = buildImageInput(
      image({ negativePrompt: "blur", sampler: "DDIM", steps: 40, quality: "hd", style: "vivid", reference: { id: "r1", url: "/r" } }),
      openai,
    );
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.input).toMatchObject({ quality: "hd", style: "vivid" });
    for (const field of ["negativePrompt", "sampler", "steps", "guidance", "referenceId", "size"] as const) expect(built.input[field]).toBeUndefined();
  });

  it("sends the reference picture's library id to a model that takes one", () => {
    const built = buildImageInput(image({ model: "k", reference: { id: "r1", url: "/r" } }), kling);
    expect(built.ok && built.input.referenceId).toBe("r1");
  });

  it("sends an exact size to a free-size model and refuses one off the grid", () => {
    const ok = buildImageInput(image({ ratio: CUSTOM_SIZE, width: 1024, height: 768 }), sd);
    expect(ok.ok && ok.input.size).toBe("1024x768");
    expect(buildImageInput(image({ ratio: CUSTOM_SIZE, width: 1001, height: 768 }), sd)).toEqual({
      ok: false,
      problems: [{ name: "width", message: "validation.media_size" }],
    });
    expect(buildImageInput(image({ ratio: CUSTOM_SIZE, width: 4096, height: 768 }), sd).ok).toBe(false);
    expect(buildImageInput(image({ ratio: CUSTOM_SIZE, width: null, height: 768 }), sd).ok).toBe(false);
  });

  it("refuses an empty or too long prompt under the prompt field", () => {
    expect(buildImageInput(image({ prompt: "   " }), sd)).toEqual({ ok: false, problems: [{ name: "prompt", message: "validation.required" }] });
    expect(buildImageInput(image({ prompt: "x".repeat(2001) }), sd)).toEqual({ ok: false, problems: [{ name: "prompt", message: "validation.too_long" }] });
  });

  it("keeps the count within the model's limit", () => {
    const one = { ...openai, maxCount: 1 };
    const built = buildImageInput(image({ count: 4 }), one);
    expect(built.ok && built.input.count).toBe(1);
  });

  it("brings the values within a newly chosen model's offer", () => {
    const fitted = fitImageValues(image({ ratio: CUSTOM_SIZE, count: 4, sampler: "DDIM" }), { ...kling, maxCount: 2 });
    expect(fitted).toEqual({ ratio: "1:1", count: 2, sampler: undefined, style: undefined });
    expect(fitImageValues(image({ ratio: "16:9", sampler: "DDIM" }), sd)).toMatchObject({ ratio: "16:9", sampler: "DDIM" });
  });
});

describe("the video form's request", () => {
  it("needs a first frame", () => {
    const built = buildVideoInput(video({ firstFrame: null }), klingVideo);
    expect(built.ok).toBe(false);
    expect(!built.ok && built.problems).toEqual([{ name: "firstFrame", message: "validation.required" }]);
  });

  it("sends the frames by library id, with the camera motion when there is no tail frame", () => {
    const built = buildVideoInput(video({ cameraMotion: "zoom", duration: 10, mode: "pro" }), klingVideo);
    expect(built).toEqual({
      ok: true,
      input: expect.objectContaining({ firstFrameId: "m1", tailFrameId: undefined, cameraMotion: "zoom", duration: 10, mode: "pro" }),
    });
  });

  it("never sends a tail frame to a model that takes none (kling-v1-5)", () => {
    expect(klingV15.tailFrame).toBe(false);
    const built = buildVideoInput(video({ tailFrame: { id: "t1", url: "/t" } }), klingV15);
    expect(built.ok && built.input.tailFrameId).toBeUndefined();
  });

  it("drops the camera motion when a tail frame is chosen on a model that takes one or the other", () => {
    expect(cameraMotionAllowed(klingVideo, true)).toBe(klingVideo.cameraMotionWithTailFrame);
    const built = buildVideoInput(video({ tailFrame: { id: "t1", url: "/t" }, cameraMotion: "zoom" }), klingVideo);
    expect(built.ok && built.input).toMatchObject({ tailFrameId: "t1", cameraMotion: klingVideo.cameraMotionWithTailFrame ? "zoom" : "none" });
  });

  it("falls back to an offered length", () => {
    const built = buildVideoInput(video({ duration: 7 }), klingVideo);
    expect(built.ok && built.input.duration).toBe(5);
  });
});

describe("prices shown before submitting", () => {
  it("are the unit price times pictures, or seconds (pro twice that)", () => {
    expect(priceOfImage(model("a", "image", 200_000), 3)).toBe(600_000);
    expect(priceOfImage(model("a", "image", 200_000, { ...sd, maxCount: 2 }), 4)).toBe(400_000);
    expect(priceOfImage(undefined, 3)).toBeNull();
    expect(priceOfVideo(model("v", "video", 100_000), 10, "std")).toBe(1_000_000);
    expect(priceOfVideo(model("v", "video", 100_000), 5, "pro")).toBe(1_000_000);
  });
});

describe("field names of a refusal", () => {
  it("are the form's", () => {
    expect(toFormField("referenceId")).toBe("reference");
    expect(toFormField("firstFrameId")).toBe("firstFrame");
    expect(toFormField("size")).toBe("width");
    expect(toFormField("prompt")).toBe("prompt");
  });
});

describe("a picture handed in the query", () => {
  it("is taken by id, its URL shown only when it is this site's path or a web address", () => {
    expect(chosenPicture(new URLSearchParams("media_id=m1&media_url=/files/a.png"))).toEqual({ id: "m1", url: "/files/a.png" });
    expect(chosenPicture(new URLSearchParams("media_id=m1&media_url=javascript:alert(1)"))).toEqual({ id: "m1", url: "" });
    expect(chosenPicture(new URLSearchParams("media_id=m1&media_url=//evil.example/a.png"))).toEqual({ id: "m1", url: "" });
    expect(chosenPicture(new URLSearchParams("media_url=/files/a.png"))).toBeNull();
    expect(chosenPicture(new URLSearchParams(`media_id=${"x".repeat(65)}`))).toBeNull();
  });
});
