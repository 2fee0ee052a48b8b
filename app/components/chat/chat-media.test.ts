import { describe, expect, it } from "vitest";
import { describeGeneration, findVideo, isVideoUrl, readChatMedia, readGeneration, type TGeneration } from "./chat-media";

const step = (state: unknown, progress?: unknown, kind: unknown = "image") => ({ arguments: { job_id: "j1", kind }, result: { state, progress } });

describe("readGeneration", () => {
  it("reads the job, its kind, state and progress from a media_generate step", () => {
    expect(readGeneration(step("generating", 40, "video"))).toEqual({ jobId: "j1", kind: "video", state: "generating", progress: 40 });
    expect(readGeneration(step("queued", 0))).toEqual({ jobId: "j1", kind: "image", state: "queued", progress: 0 });
    for (const state of ["background", "done", "failed", "failed_review"]) expect(readGeneration(step(state, 100))?.state).toBe(state);
  });

  it("keeps the percentage within 0-100 and whole, and reads a missing or bad one as 0", () => {
    expect(readGeneration(step("generating", 140))?.progress).toBe(100);
    expect(readGeneration(step("generating", -5))?.progress).toBe(0);
    expect(readGeneration(step("generating", 33.6))?.progress).toBe(34);
    expect(readGeneration(step("generating"))?.progress).toBe(0);
    expect(readGeneration(step("generating", "50"))?.progress).toBe(0);
    expect(readGeneration(step("generating", Number.NaN))?.progress).toBe(0);
  });

  it("refuses a step with no state or a state that is not a job's", () => {
    expect(readGeneration(undefined)).toBeNull();
    expect(readGeneration("done")).toBeNull();
    expect(readGeneration({ arguments: { job_id: "j1" } })).toBeNull();
    expect(readGeneration(step("succeed", 100))).toBeNull();
    expect(readGeneration(step(3, 100))).toBeNull();
  });

  it("reads an unknown kind as a picture and a missing job id as empty", () => {
    expect(readGeneration({ result: { state: "queued" } })).toEqual({ jobId: "", kind: "image", state: "queued", progress: 0 });
    expect(readGeneration(step("queued", 0, "lipsync"))?.kind).toBe("image");
  });
});

describe("readChatMedia", () => {
  it("keeps pictures and videos with an address, and the videos' posters", () => {
    expect(
      readChatMedia([
        { kind: "image", url: "/files/a.png", mime: "image/png", posterUrl: null },
        { kind: "video", url: "/files/v.mp4", mime: "video/mp4", posterUrl: "/files/v.jpg" },
      ]),
    ).toEqual([
      { kind: "image", url: "/files/a.png", posterUrl: null },
      { kind: "video", url: "/files/v.mp4", posterUrl: "/files/v.jpg" },
    ]);
  });

  it("skips anything else, and reads what is not a list as none", () => {
    expect(readChatMedia(undefined)).toEqual([]);
    expect(readChatMedia({ kind: "image", url: "/a.png" })).toEqual([]);
    expect(
      readChatMedia([null, "x", { kind: "audio", url: "/a.mp3" }, { kind: "image" }, { kind: "video", url: "" }, { kind: "video", url: "/v", posterUrl: 7 }]),
    ).toEqual([{ kind: "video", url: "/v", posterUrl: null }]);
  });
});

describe("isVideoUrl", () => {
  it("knows mp4, webm and mov by the path's extension, in any case, with a query or fragment after it", () => {
    for (const url of [
      "/files/v.mp4",
      "https://cdn.example.com/a/b.WEBM",
      "v.mov",
      "/files/v.mp4?sig=abc",
      "/files/v.mp4#t=1",
      "https://x.test/v.Mov?x=.png",
    ]) {
      expect(isVideoUrl(url), url).toBe(true);
    }
  });

  it("does not take pictures, pages or a video extension outside the path for a video", () => {
    for (const url of [
      "/files/a.png",
      "https://example.com/",
      "https://example.com/watch?v=a.mp4",
      "/page#clip.mp4",
      "/files/mp4",
      "/files/v.mp4.html",
      "/files/v.mpeg",
    ]) {
      expect(isVideoUrl(url), url).toBe(false);
    }
  });
});

describe("findVideo", () => {
  const media = [
    { kind: "video" as const, url: "/files/jobs/v1", posterUrl: "/files/jobs/v1.jpg" },
    { kind: "image" as const, url: "/files/jobs/odd.mp4", posterUrl: null },
  ];

  it("plays a link the reply's media call a video, with its poster, whatever its address", () => {
    expect(findVideo("/files/jobs/v1", media)).toEqual({ posterUrl: "/files/jobs/v1.jpg" });
  });

  it("plays a link whose address ends like a video when the media do not name it (a reply reopened from history)", () => {
    expect(findVideo("/files/jobs/v2.webm", media)).toEqual({ posterUrl: null });
    expect(findVideo("/files/jobs/v2.webm", [])).toEqual({ posterUrl: null });
  });

  it("leaves ordinary links, empty addresses and what the media call a picture as links", () => {
    expect(findVideo("https://example.com/docs", media)).toBeNull();
    expect(findVideo("", media)).toBeNull();
    expect(findVideo("/files/jobs/odd.mp4", media)).toBeNull();
  });
});

describe("describeGeneration", () => {
  const g = (state: TGeneration["state"], progress: number): TGeneration => ({ jobId: "j", kind: "image", state, progress });

  it("names each state, with the percentage once one is known", () => {
    expect(describeGeneration(g("queued", 0))).toEqual({ key: "queued", progress: 0 });
    expect(describeGeneration(g("generating", 0))).toEqual({ key: "starting", progress: 0 });
    expect(describeGeneration(g("generating", 40))).toEqual({ key: "generating", progress: 40 });
    expect(describeGeneration(g("background", 60))).toEqual({ key: "background", progress: 60 });
    expect(describeGeneration(g("done", 90))).toEqual({ key: "finishing", progress: 100 });
    expect(describeGeneration(g("failed", 10)).key).toBe("failed");
    expect(describeGeneration(g("failed_review", 100)).key).toBe("failed_review");
  });
});
