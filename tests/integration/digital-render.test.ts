// Digital-human videos rendered end to end on the real services: the tRPC procedures save a video
// (every id checked as the caller's), quote and start a render; the worker's job "digital.render",
// run here with the worker's real file tools (ffmpeg), speaks the script on a loopback speech server
// that answers an MP3 of a known length, keys a generated green-screen figure over the background and
// writes an H.264/AAC mp4 into the owner's library. The output is probed and its frames looked at.
// Refusals change nothing and charge nothing; a render resumed after a killed worker pays once.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { handleDigitalRender, registerRenderHooks } from "../../server/digital/render.service";
import { setFileWork, getFileWork } from "../../server/media/file-work";
import { getQueue } from "../../server/jobs/queue";
import { DEFAULT_KEY, priceLipsync } from "../../server/digital/digital.schema";
import { resetEnvCache } from "../../server/env";
import { appRouter } from "../../server/trpc/app-router";
import { getFileStore } from "../../server/uploads/file-store";
import { priceMetered } from "../../server/money/metering/metering.service";
import { createFileWork } from "../../workers/media";
import { probeMedia } from "../../workers/media/probe";
import { decodeRgbFrames, renderFilmingVideo, strongGreenShare } from "../../workers/media/test-sources";
import { startFakeKling } from "../fakes/fake-kling";
import { waitUntil } from "../fakes/media-fake-kit";
import { startFakeSpeechClip } from "../fakes/fake-speech-clip";
import { addLibraryPicture, addMediaModel, balanceOf, jobPostings, makeMediaUser, runMediaWorkerSteps } from "../helpers/media-jobs";
import { useApiWithTempFiles } from "../helpers/temp-files-api";

const SPEECH_SECONDS = 3.2;
const server = useApiWithTempFiles("zl-digital-render-");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zl-digital-render-work-"));
let speech: Awaited<ReturnType<typeof startFakeSpeechClip>>;
let voiceModel: string;
let othersEnabled: string[] = [];
/** The prepared figure's files (a loop still on its green, a keyed still), copied for each figure made. */
let prepared: { loop: string; poster: string };

const callerFor = (accountId: string) =>
  appRouter.createCaller({
    lng: "en",
    isPlatformAdmin: false,
    account: { id: accountId, roles: [], enterpriseId: null, account: "x", nickname: "x", avatarUrl: null, phone: null, edition: "professional" } as never,
  });
type TCaller = ReturnType<typeof callerFor>;

/** The catalogue code a refused call carries. */
async function refusal(p: Promise<unknown>) {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { cause?: { code?: string }; code?: string } | null;
  expect(err, "the call was expected to be refused").not.toBeNull();
  return err!.cause?.code ?? err!.code;
}

async function makeFigure(ownerAccountId: string, o: { state?: "ready" | "checking"; trained?: boolean } = {}) {
  return getDb().digitalFigure.create({
    data: {
      ownerAccountId,
      name: `Figure ${crypto.randomBytes(2).toString("hex")}`,
      state: o.state ?? "ready",
      kind: o.trained ? "trained" : "green_screen",
      provider: o.trained ? "kling" : null,
      providerAvatarId: o.trained ? "avatar-1" : null,
      sourceFileKey: prepared.loop,
      loopFileKey: o.state === "checking" ? null : prepared.loop,
      posterFileKey: o.state === "checking" ? null : prepared.poster,
      keyColor: DEFAULT_KEY.color,
      keySimilarity: DEFAULT_KEY.similarity,
      keyBlend: DEFAULT_KEY.blend,
    },
    select: { id: true },
  });
}

/** Runs the render jobs the queue holds, as the worker would, until none is left. */
async function runQueuedRenders() {
  const queue = getQueue("digital-render");
  for (let round = 0; round < 10; round++) {
    const jobs = await queue.getJobs(["waiting", "delayed", "prioritized"]);
    if (!jobs.length) return;
    for (const job of jobs) {
      await job.remove();
      await handleDigitalRender(job.data);
    }
  }
}

const fileOf = (url: string) => path.join(server.dataDir, "files", url.replace(/^\/files\//, ""));
const videoRow = (id: string) => getDb().digitalVideo.findUniqueOrThrow({ where: { id } });
const speechPrice = (text: string) => priceMetered("speech", [...text].length);

beforeAll(async () => {
  setFileWork(createFileWork());
  registerRenderHooks();
  await getQueue("digital-render").obliterate({ force: true });
  // Only this file's voice model speaks, and no lip-sync model is there until a test adds one.
  othersEnabled = (await getDb().model.findMany({ where: { kind: { in: ["voice", "lipsync"] }, enabled: true }, select: { id: true } })).map((m) => m.id);
  await getDb().model.updateMany({ where: { id: { in: othersEnabled } }, data: { enabled: false } });
  speech = await startFakeSpeechClip({ apiKey: "sk-speech-clip", seconds: SPEECH_SECONDS });
  voiceModel = (await addMediaModel({ kind: "voice", upstream: "tts-1", type: "openai", baseUrl: speech.base, secret: "sk-speech-clip", unitPriceMicro: 0 }))
    .key;
  // A filming video before a green screen, prepared as a figure's loop by the worker's own tools.
  const filming = path.join(tmp, "filming.mp4");
  await renderFilmingVideo(filming, { width: 720, height: 1280, seconds: 4 });
  const key = `media/render-test/figures/${crypto.randomBytes(6).toString("hex")}.mp4`;
  await getFileStore().put(key, fs.readFileSync(filming), "video/mp4");
  const made = await getFileWork().prepareFigure(key, DEFAULT_KEY);
  prepared = { loop: made.loop, poster: made.poster };
}, 120_000);

afterAll(async () => {
  await getDb().model.updateMany({ where: { key: voiceModel }, data: { enabled: false } });
  await getDb().model.updateMany({ where: { id: { in: othersEnabled } }, data: { enabled: true } });
  await speech?.close();
  setFileWork(null);
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function makeVideo(caller: TCaller, changes: Record<string, unknown>) {
  const video = await caller.digitalVideos.create({ name: "Greeting" });
  return caller.digitalVideos.update({ id: video.id, ...changes } as never);
}

describe("a render on the idle loop (a figure that is not trained)", () => {
  const script = "Welcome to the show, and thank you for watching.";
  let user: { id: string };
  let caller: TCaller;
  let videoId: string;
  let firstOutput: { itemId: string; url: string };

  it("quotes the speech alone and says the figure will not move its lips", async () => {
    user = await makeMediaUser();
    caller = callerFor(user.id);
    const figure = await makeFigure(user.id);
    const picture = await addLibraryPicture(user.id, 200);
    const video = await makeVideo(caller, {
      orientation: "vertical",
      figureId: figure.id,
      placement: { x: 0.5, y: 0.6, scale: 0.8 },
      backgroundItemId: picture,
      voice: "nova",
      script,
    });
    videoId = video.id;
    expect(video).toMatchObject({
      figure: { id: figure.id, trained: false, ready: true },
      background: { id: picture, kind: "image" },
      voice: "nova",
      state: null,
    });
    const quote = await caller.digitalVideos.quote({ id: videoId });
    expect(quote).toEqual({
      path: "idle_loop",
      chars: script.length,
      estimatedDurationMs: expect.any(Number),
      speechMicro: speechPrice(script),
      lipsyncMicro: 0,
      compositeMicro: 0,
      totalMicro: speechPrice(script),
      problems: [],
    });
  });

  it("speaks, composites a vertical H.264/AAC mp4 as long as the speech with no green left, into the library, charged the speech once", async () => {
    const before = await balanceOf(user.id);
    const uploadsBefore = await getDb().mediaItem.count({ where: { ownerAccountId: user.id, source: "upload" } });
    const started = await caller.digitalVideos.render({ id: videoId });
    expect(started).toMatchObject({ state: "queued", step: "speech", progress: 0 });
    expect(await refusal(caller.digitalVideos.render({ id: videoId }))).toBe("repeat_action");
    await runQueuedRenders();

    const done = await caller.digitalVideos.get({ id: videoId });
    expect(done).toMatchObject({ state: "done", step: "composite", progress: 100, errorCode: null });
    expect(done.output!.url).toMatch(new RegExp(`^/files/media/${user.id}/digital/${videoId}-[0-9a-z]+\\.mp4$`));
    firstOutput = done.output!;

    const probe = await probeMedia(fileOf(done.output!.url));
    expect([probe.video?.codec, probe.audio?.codec]).toEqual(["h264", "aac"]);
    expect([probe.video?.width, probe.video?.height]).toEqual([720, 1280]);
    expect(Math.abs(probe.durationMs! - SPEECH_SECONDS * 1000)).toBeLessThanOrEqual(300);
    const frames = await decodeRgbFrames(fileOf(done.output!.url), path.join(tmp, "frames.rgb"), 20);
    expect(strongGreenShare(frames)).toBeLessThan(0.005);

    const item = await getDb().mediaItem.findUniqueOrThrow({ where: { id: done.output!.itemId } });
    expect(item).toMatchObject({ ownerAccountId: user.id, kind: "video", source: "generated", mime: "video/mp4", width: 720, height: 1280 });
    expect(await getDb().mediaItem.count({ where: { ownerAccountId: user.id, source: "upload" } })).toBe(uploadsBefore);
    expect(await getQueue("media-files").getJob(`media-derive-${item.id}`)).toBeTruthy();

    // The speech: the announcer chosen, billed to the owner once, its audio kept with the video's files.
    expect(speech.spoken.at(-1)).toEqual({ model: "tts-1", voice: "nova", input: script });
    const row = await videoRow(videoId);
    const job = await getDb().mediaJob.findUniqueOrThrow({ where: { id: row.speechJobId! } });
    expect(job).toMatchObject({ kind: "speech", state: "done", origin: "digital_video", originRef: videoId, ownerAccountId: user.id });
    expect((job.outputs as { fileKey: string }[])[0].fileKey).toMatch(new RegExp(`^media/${user.id}/digital/`));
    expect(before - (await balanceOf(user.id))).toBe(speechPrice(script));
    expect((await jobPostings(job.id)).map((p) => p.kind)).toEqual(["media_hold", "media_charge"]);
  }, 120_000);

  it("resumes a render whose worker was killed at any step without speaking or charging twice", async () => {
    const spokenBefore = speech.spoken.length;
    const balance = await balanceOf(user.id);
    const items = await getDb().mediaItem.count({ where: { ownerAccountId: user.id } });
    for (const step of ["composite", "speech"]) {
      await getDb().digitalVideo.update({ where: { id: videoId }, data: { renderState: "generating", renderStep: step, progress: 30 } });
      expect(await handleDigitalRender({ videoId, step: step as "speech" })).toBe("done");
      expect(await videoRow(videoId)).toMatchObject({ renderState: "done", progress: 100, outputItemId: firstOutput.itemId });
    }
    expect(speech.spoken.length).toBe(spokenBefore);
    expect(await balanceOf(user.id)).toBe(balance);
    expect(await getDb().mediaItem.count({ where: { ownerAccountId: user.id } })).toBe(items);
  }, 120_000);

  it("renders again as a horizontal video on a colour: the output is replaced, the first stays in the library", async () => {
    await caller.digitalVideos.update({ id: videoId, orientation: "horizontal", backgroundItemId: null, backgroundColor: "#ffffff" });
    await caller.digitalVideos.render({ id: videoId });
    await runQueuedRenders();
    const done = await caller.digitalVideos.get({ id: videoId });
    expect(done.state).toBe("done");
    expect(done.output!.itemId).not.toBe(firstOutput.itemId);
    const probe = await probeMedia(fileOf(done.output!.url));
    expect([probe.video?.width, probe.video?.height]).toEqual([1280, 720]);
    expect(strongGreenShare(await decodeRgbFrames(fileOf(done.output!.url), path.join(tmp, "frames2.rgb"), 20))).toBeLessThan(0.005);
    expect(await getDb().mediaItem.findUnique({ where: { id: firstOutput.itemId }, select: { deletedAt: true } })).toEqual({ deletedAt: null });
    const listed = await caller.digitalVideos.list();
    expect(listed.items[0]).toMatchObject({ id: videoId, state: "done", orientation: "horizontal", output: { itemId: done.output!.itemId } });
    expect((await caller.digitalVideos.progress({ ids: [videoId] })).items).toEqual([expect.objectContaining({ id: videoId, state: "done", progress: 100 })]);
  }, 120_000);

  it("renders what it was started with: edits made while it runs wait for the next render", async () => {
    const started = "This is what was quoted and started.";
    await caller.digitalVideos.update({ id: videoId, voice: "nova", script: started, orientation: "vertical", backgroundColor: "#000000" });
    await caller.digitalVideos.render({ id: videoId });
    // The editor saves as the creator types, render or not.
    await caller.digitalVideos.update({
      id: videoId,
      voice: "alloy",
      script: "Typed while it rendered.",
      orientation: "horizontal",
      backgroundColor: "#ffffff",
    });
    await runQueuedRenders();
    const done = await caller.digitalVideos.get({ id: videoId });
    expect(done).toMatchObject({ state: "done", script: "Typed while it rendered.", orientation: "horizontal" });
    expect(speech.spoken.at(-1)).toMatchObject({ voice: "nova", input: started });
    const probe = await probeMedia(fileOf(done.output!.url));
    expect([probe.video?.width, probe.video?.height]).toEqual([720, 1280]);
  }, 120_000);

  it("speaks in a voice of the owner's own, by its provider's id on its own model", async () => {
    const voice = await getDb().digitalVoice.create({
      data: {
        ownerAccountId: user.id,
        name: "Me",
        sampleKind: "custom",
        source: "upload",
        sampleFileKey: "media/x/voices/x.mp3",
        state: "ready",
        modelKey: voiceModel,
        providerVoiceId: "clone-me-01",
      },
      select: { id: true },
    });
    await caller.digitalVideos.update({ id: videoId, voice: `own:${voice.id}` });
    await caller.digitalVideos.render({ id: videoId });
    await runQueuedRenders();
    expect((await videoRow(videoId)).renderState).toBe("done");
    expect(speech.spoken.at(-1)).toMatchObject({ voice: "clone-me-01", model: "tts-1" });
  }, 120_000);
});

describe("refusals change nothing and charge nothing", () => {
  let user: { id: string };
  let caller: TCaller;
  let other: { id: string };

  beforeAll(async () => {
    user = await makeMediaUser();
    caller = callerFor(user.id);
    other = await makeMediaUser();
  });

  it("refuses another account's figure, voice and background as not found, and an unready figure of mine", async () => {
    const video = await caller.digitalVideos.create({ name: "Mine" });
    const theirs = {
      figure: await makeFigure(other.id),
      picture: await addLibraryPicture(other.id),
      voice: await getDb().digitalVoice.create({
        data: {
          ownerAccountId: other.id,
          name: "Theirs",
          sampleKind: "custom",
          source: "upload",
          sampleFileKey: "k",
          state: "ready",
          modelKey: voiceModel,
          providerVoiceId: "v",
        },
        select: { id: true },
      }),
    };
    const before = await videoRow(video.id);
    expect(await refusal(caller.digitalVideos.update({ id: video.id, figureId: theirs.figure.id }))).toBe("not_found");
    expect(await refusal(caller.digitalVideos.update({ id: video.id, backgroundItemId: theirs.picture }))).toBe("not_found");
    expect(await refusal(caller.digitalVideos.update({ id: video.id, voice: `own:${theirs.voice.id}` }))).toBe("not_found");
    const unready = await makeFigure(user.id, { state: "checking" });
    expect(await refusal(caller.digitalVideos.update({ id: video.id, figureId: unready.id }))).toBe("digital_figure_not_ready");
    expect(await refusal(caller.digitalVideos.update({ id: video.id, voice: "no-such-announcer" }))).toBe("digital_voice_not_ready");
    expect(await refusal(callerFor(other.id).digitalVideos.get({ id: video.id }))).toBe("not_found");
    expect(await videoRow(video.id)).toEqual(before);
  });

  it("refuses to render without a ready figure, a script, a speech model or the money, writing nothing", async () => {
    const figure = await makeFigure(user.id);
    const video = await makeVideo(caller, { figureId: figure.id, voice: "alloy", script: "   " });
    const jobsBefore = await getDb().mediaJob.count({ where: { ownerAccountId: user.id } });
    const balance = await balanceOf(user.id);
    const spoken = speech.spoken.length;

    expect(await refusal(caller.digitalVideos.render({ id: video.id }))).toBe("digital_script_invalid");
    expect((await caller.digitalVideos.quote({ id: video.id })).problems).toEqual(["no_script"]);
    await caller.digitalVideos.update({ id: video.id, script: "Hello there" });
    await getDb().digitalFigure.update({ where: { id: figure.id }, data: { state: "check_failed" } });
    expect(await refusal(caller.digitalVideos.render({ id: video.id }))).toBe("digital_figure_not_ready");
    await getDb().digitalFigure.update({ where: { id: figure.id }, data: { state: "ready" } });

    await getDb().model.update({ where: { key: voiceModel }, data: { enabled: false } });
    try {
      expect(await refusal(caller.digitalVideos.render({ id: video.id }))).toBe("voice_unavailable");
      expect((await caller.digitalVideos.quote({ id: video.id })).problems).toContain("no_speech_model");
    } finally {
      await getDb().model.update({ where: { key: voiceModel }, data: { enabled: true } });
    }
    const poor = await makeMediaUser(0);
    const poorFigure = await makeFigure(poor.id);
    const poorVideo = await makeVideo(callerFor(poor.id), { figureId: poorFigure.id, voice: "alloy", script: "Hello there" });
    expect(await refusal(callerFor(poor.id).digitalVideos.render({ id: poorVideo.id }))).toBe("balance_insufficient");

    expect(await videoRow(video.id)).toMatchObject({ renderState: null, speechJobId: null, progress: 0 });
    expect((await videoRow(poorVideo.id)).renderState).toBeNull();
    expect(await getDb().mediaJob.count({ where: { ownerAccountId: { in: [user.id, poor.id] } } })).toBe(jobsBefore);
    expect(await balanceOf(user.id)).toBe(balance);
    expect(speech.spoken.length).toBe(spoken);
  });

  it("fails a render whose speech fails, with the catalogue's code, and releases the speech's hold", async () => {
    const figure = await makeFigure(user.id);
    const video = await makeVideo(caller, { figureId: figure.id, voice: "alloy", script: "This will not be spoken" });
    const balance = await balanceOf(user.id);
    speech.state.fail = true;
    try {
      await caller.digitalVideos.render({ id: video.id });
      await runQueuedRenders();
    } finally {
      speech.state.fail = false;
    }
    const failed = await caller.digitalVideos.get({ id: video.id });
    expect(failed).toMatchObject({ state: "failed", errorCode: "voice_unavailable", output: null });
    const row = await videoRow(video.id);
    expect((await jobPostings(row.speechJobId!)).map((p) => p.kind)).toEqual(["media_hold", "media_release"]);
    expect(await balanceOf(user.id)).toBe(balance);
  }, 60_000);
});

describe("a render with lip-sync (a trained figure, Kling)", () => {
  let kling: Awaited<ReturnType<typeof startFakeKling>>;
  let lipsyncModel: string;
  let user: { id: string };
  let caller: TCaller;
  const script = "A trained figure says this.";

  beforeAll(async () => {
    kling = await startFakeKling();
    // Providers fetch the figure's clip and the speech from our public files.
    process.env.PUBLIC_URL = server.base;
    resetEnvCache();
    lipsyncModel = (
      await addMediaModel({ kind: "lipsync" as never, upstream: "kling-lipsync", type: "kling", baseUrl: kling.url, secret: kling.secret, unitPriceMicro: 0 })
    ).key;
    user = await makeMediaUser();
    caller = callerFor(user.id);
  });
  afterAll(async () => {
    await getDb().model.updateMany({ where: { key: lipsyncModel }, data: { enabled: false } });
    delete process.env.PUBLIC_URL;
    resetEnvCache();
    await kling?.close();
  });

  /** Renders the video through speech, the lip-sync job on the media worker's steps, and whatever the job's end queued. */
  async function renderThroughLipsync(videoId: string) {
    await caller.digitalVideos.render({ id: videoId });
    await runQueuedRenders();
    const waiting = await videoRow(videoId);
    expect(waiting).toMatchObject({ renderState: "generating", renderStep: "lipsync" });
    const stop = runMediaWorkerSteps({ ownerAccountId: waiting.ownerAccountId });
    try {
      await waitUntilJobEnded(waiting.lipsyncJobId!);
    } finally {
      await stop();
    }
    await runQueuedRenders();
    return waiting.lipsyncJobId!;
  }

  async function waitUntilJobEnded(jobId: string) {
    let ended = false;
    const poll = setInterval(() => {
      void getDb()
        .mediaJob.findUnique({ where: { id: jobId }, select: { state: true } })
        .then((j) => (ended = ["done", "failed", "failed_review"].includes(j?.state ?? "")));
    }, 100);
    try {
      await waitUntil(() => ended, 30_000, "the lip-sync job's end");
    } finally {
      clearInterval(poll);
    }
  }

  it("quotes the lip-sync, holds and charges it once at the 5-second price, and composites the lip-synced clip", async () => {
    const figure = await makeFigure(user.id, { trained: true });
    const video = await makeVideo(caller, { figureId: figure.id, voice: "alloy", script });
    const quote = await caller.digitalVideos.quote({ id: video.id });
    expect(quote).toMatchObject({ path: "lipsync", speechMicro: speechPrice(script), lipsyncMicro: priceLipsync(quote.estimatedDurationMs), problems: [] });
    expect((await caller.digitalVideos.get({ id: video.id })).figure).toMatchObject({ trained: true });
    const before = await balanceOf(user.id);

    const jobId = await renderThroughLipsync(video.id);
    const done = await caller.digitalVideos.get({ id: video.id });
    expect(done).toMatchObject({ state: "done", progress: 100, errorCode: null });
    const job = await getDb().mediaJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ kind: "lipsync", state: "done", origin: "digital_video", originRef: video.id, holdMicro: 500_000n, chargedMicro: 500_000n });
    expect((await jobPostings(jobId)).map((p) => p.kind)).toEqual(["media_hold", "media_charge"]);
    expect(before - (await balanceOf(user.id))).toBe(speechPrice(script) + priceLipsync(SPEECH_SECONDS * 1000));
    // Kling was given the figure's clip and the render's speech by their public addresses.
    const asked = kling.requests.find((r) => r.method === "POST" && r.path === "/v1/videos/lip-sync")!.body.input;
    expect(asked.video_url).toBe(`${server.base}/files/${prepared.loop}`);
    expect(asked.audio_url).toMatch(new RegExp(`^${server.base}/files/media/${user.id}/digital/`));
    const probe = await probeMedia(fileOf(done.output!.url));
    expect([probe.video?.codec, probe.audio?.codec, probe.video?.width, probe.video?.height]).toEqual(["h264", "aac", 720, 1280]);
    expect(Math.abs(probe.durationMs! - SPEECH_SECONDS * 1000)).toBeLessThanOrEqual(300);
  }, 120_000);

  it("gives Kling an excerpt of a long figure's loop just longer than the speech, cut once and kept", async () => {
    const figure = await makeFigure(user.id, { trained: true });
    // A figure filmed for a minute: more than Kling's 10 seconds.
    const facts = { durationMs: 60_000, width: 720, height: 1280, fps: 25, hasAudio: false, faceFound: true, greenShare: 0.9, keyColor: "#00ff00" };
    const filmed = { stage: "done", preparedAt: null, greeting: null, figure: { problems: [], facts } };
    await getDb().digitalFigure.update({ where: { id: figure.id }, data: { check: filmed as never } });
    const excerptKey = prepared.loop.replace(/\.mp4$/, ".sync3700.mp4");
    for (let round = 0; round < 2; round++) {
      const video = await makeVideo(caller, { figureId: figure.id, voice: "alloy", script });
      const sent = kling.requests.length;
      await renderThroughLipsync(video.id);
      expect((await caller.digitalVideos.get({ id: video.id })).state).toBe("done");
      const asked = kling.requests.slice(sent).find((r) => r.method === "POST" && r.path === "/v1/videos/lip-sync")!.body.input;
      expect(asked.video_url).toBe(`${server.base}/files/${excerptKey}`);
    }
    const probe = await probeMedia(fileOf(`/files/${excerptKey}`));
    expect(Math.abs(probe.durationMs! - 3_700)).toBeLessThanOrEqual(100);
  }, 120_000);

  it("fails the render when the lip-sync fails, and releases the lip-sync's hold", async () => {
    const figure = await makeFigure(user.id, { trained: true });
    const video = await makeVideo(caller, { figureId: figure.id, voice: "alloy", script });
    const before = await balanceOf(user.id);
    kling.behave({ outcome: "failed" });
    try {
      const jobId = await renderThroughLipsync(video.id);
      expect(await caller.digitalVideos.get({ id: video.id })).toMatchObject({ state: "failed", errorCode: "generation_failed", output: null });
      expect((await jobPostings(jobId)).map((p) => p.kind)).toEqual(["media_hold", "media_release"]);
      // The speech was delivered and stays paid; the lip-sync costs nothing.
      expect(before - (await balanceOf(user.id))).toBe(speechPrice(script));
    } finally {
      kling.behave({});
    }
  }, 120_000);
});
