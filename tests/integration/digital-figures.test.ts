// Figures end to end on the real services and the worker's real file tools (ffmpeg): uploads through
// the REST route and their refusals (not a video, too large, empty, no session, a bad name), the
// measuring and preparing jobs on generated clips (a green screen passes and is keyed; a 640x360
// clip, a 5-second clip, a room's wall and a poor greeting video are refused with their problems),
// the tRPC verbs with another account's ids, keying again, and avatar training orders: refused with
// nothing written when no provider trains avatars or the clip is short, and ordered at the loopback
// HeyGen: held, then trained with its avatar and charged, or failed and released, the figure staying
// a usable green-screen figure.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { withTransaction } from "../../server/db/transaction";
import { AVATAR_TRAINING_PRICE_MICRO, FILMING_LIMITS, TRAINING_MIN_MS, type TFilmingFacts } from "../../server/digital/digital.schema";
import { applyTrainingEnd, registerFigureHooks } from "../../server/digital/figure-training.service";
import { handleFigureMeasure, handleFigurePrepare } from "../../server/digital/figure-work.service";
import type { TFigureView } from "../../server/digital/figures.schema";
import { ERROR_CODES } from "../../server/errors/codes";
import { mapError } from "../../server/errors/map-error";
import { getQueue } from "../../server/jobs/queue";
import { resetEnvCache } from "../../server/env";
import { sealSecret } from "../../server/lib/secret-box";
import { clearJobEndHooks } from "../../server/media/job-finish-hooks";
import { handleMediaDispatch, handleMediaPoll } from "../../server/media/media-job-runner";
import { setFileWork } from "../../server/media/file-work";
import { appRouter } from "../../server/trpc/app-router";
import { createFileWork } from "../../workers/media";
import { startFakeHeygen, type TFakeHeygen } from "../fakes/fake-heygen";
import { Browser } from "../helpers/api-client";
import { fundAccount } from "../helpers/money";
import { useApiWithTempFiles } from "../helpers/temp-files-api";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-digital-figures-");
const clipsDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-figure-clips-"));
const FFMPEG = fs.existsSync("/usr/bin/ffmpeg") ? "/usr/bin/ffmpeg" : "ffmpeg";
let n = 0;

/** A clip of `seconds` at `size`: a person-ish shape (a head over a body) before `backdrop`, with a tone. */
function makeClip(name: string, o: { size: string; seconds: number; backdrop: "green" | "testsrc" }) {
  const file = path.join(clipsDir, name);
  const picture =
    o.backdrop === "green"
      ? `color=c=0x00ff00:s=${o.size}:r=25:d=${o.seconds},drawbox=x=iw*0.4:y=ih*0.3:w=iw*0.2:h=ih*0.7:color=0x203060:t=fill,drawbox=x=iw*0.45:y=ih*0.08:w=iw*0.1:h=ih*0.2:color=0xc08060:t=fill`
      : `testsrc=s=${o.size}:r=25:d=${o.seconds}`;
  execFileSync(FFMPEG, [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", picture, "-f", "lavfi", "-i", `sine=frequency=440:duration=${o.seconds}`],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file],
  ]);
  return fs.readFileSync(file);
}

const clips = {} as Record<"green" | "lowRes" | "short" | "notGreen", Buffer>;
beforeAll(() => {
  // The real tools, with the face detector's answer left out: the generated shape is no face, and null is "could not tell".
  const real = createFileWork();
  setFileWork({ ...real, measureFilming: async (key) => ({ ...(await real.measureFilming(key)), faceFound: null }) });
  clips.green = makeClip("green.mp4", { size: "1280x720", seconds: 12, backdrop: "green" });
  clips.lowRes = makeClip("low.mp4", { size: "640x360", seconds: 12, backdrop: "green" });
  clips.short = makeClip("short.mp4", { size: "1280x720", seconds: 5, backdrop: "green" });
  clips.notGreen = makeClip("room.mp4", { size: "1280x720", seconds: 12, backdrop: "testsrc" });
}, 120_000);
afterAll(() => {
  setFileWork(null);
  fs.rmSync(clipsDir, { recursive: true, force: true });
});

async function makeUser() {
  const row = await getDb().account.create({
    data: { account: `fig${run}${++n}`, nickname: `Figures ${n}`, roles: ["individual_developer"] as never },
    select: { id: true },
  });
  const { token } = await startSession(row.id);
  const browser = new Browser(server.base, `10.9.${n}.1`);
  browser.cookies.set("zl_session", token);
  const caller = appRouter.createCaller({
    lng: "en",
    isPlatformAdmin: false,
    account: { id: row.id, roles: [], enterpriseId: null, account: "x", nickname: "x", avatarUrl: null, phone: null, edition: "basic" } as never,
  });
  return { id: row.id, browser, caller };
}
type TUser = Awaited<ReturnType<typeof makeUser>>;

const upload = (user: TUser, files: Record<string, { bytes: Uint8Array; filename?: string; type?: string }>, fields: Record<string, string> = {}) =>
  user.browser.upload("/api/v1/digital/figures", { files, fields });
const uploadOk = async (user: TUser, bytes: Buffer, extra: { greeting?: Buffer; name?: string } = {}) => {
  const files: Record<string, { bytes: Uint8Array; filename: string; type: string }> = { file: { bytes, filename: "filming.mp4", type: "video/mp4" } };
  if (extra.greeting) files.greeting = { bytes: extra.greeting, filename: "hello.mp4", type: "video/mp4" };
  const res = await upload(user, files, extra.name ? { name: extra.name } : {});
  expect(res.body.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as TFigureView;
};

/** The catalogue code (and the envelope) of a refused call. */
async function refusal(p: Promise<unknown>) {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { cause?: unknown } | null;
  expect(err, "the call was expected to be refused").not.toBeNull();
  return mapError(err!.cause ?? err, "en");
}

/** Runs the figure's queued worker steps (measure, then any prepare) in this process; answers each step's outcome. */
async function runWorkerSteps(figureId: string) {
  const queue = getQueue("digital-files");
  const outcomes: string[] = [];
  const measure = await queue.getJob(`figure-measure-${figureId}`);
  if (measure) {
    outcomes.push(await handleFigureMeasure(measure.data));
    await measure.remove();
  }
  for (;;) {
    const waiting = (await queue.getJobs(["waiting", "delayed", "prioritized"])).filter(
      (j) => j.name === "digital.figure-prepare" && j.data.figureId === figureId,
    );
    if (!waiting.length) return outcomes;
    for (const job of waiting) {
      outcomes.push(await handleFigurePrepare(job.data));
      await job.remove();
    }
  }
}

const figureRow = (id: string) => getDb().digitalFigure.findUniqueOrThrow({ where: { id } });
const filesOf = (accountId: string) => {
  const dir = path.join(server.dataDir, "files", "media", accountId, "figures");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.endsWith(".meta.json")) : [];
};
const fetchFile = async (url: string) => {
  const res = await fetch(`${server.base}${url}`);
  return { http: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
};

describe("uploading a filming video", () => {
  it("refuses what is not a video, too large, empty or missing, a bad name, and strangers, writing nothing", async () => {
    const user = await makeUser();
    const expectRefused = async (res: Awaited<ReturnType<typeof upload>>, code: keyof typeof ERROR_CODES, field?: string) => {
      expect(res.body.status, JSON.stringify(res.body)).toBe(ERROR_CODES[code].status);
      if (field) expect(res.body.data?.field ?? res.body.data?.fields?.[0]?.path).toBe(field);
    };
    await expectRefused(
      await upload(user, { file: { bytes: Buffer.from("just some text, not a video"), filename: "notes.mp4", type: "video/mp4" } }),
      "video_type_not_allowed",
      "file",
    );
    await expectRefused(await upload(user, { file: { bytes: Buffer.alloc(0), filename: "empty.mp4", type: "video/mp4" } }), "file_empty_or_prohibited", "file");
    await expectRefused(await upload(user, {}, { name: "no file" }), "file_empty_or_prohibited", "file");
    // The reader stops at the limit's byte.
    const tooLarge = Buffer.concat([clips.short, Buffer.alloc(FILMING_LIMITS.figure.maxBytes + 1 - clips.short.length)]);
    await expectRefused(await upload(user, { file: { bytes: tooLarge, filename: "big.mp4", type: "video/mp4" } }), "file_too_large", "file");
    const greetingTooLarge = Buffer.concat([clips.short, Buffer.alloc(FILMING_LIMITS.greeting.maxBytes + 1 - clips.short.length)]);
    const both = {
      file: { bytes: clips.short, filename: "a.mp4", type: "video/mp4" },
      greeting: { bytes: greetingTooLarge, filename: "b.mp4", type: "video/mp4" },
    };
    await expectRefused(await upload(user, both), "file_too_large", "greeting");
    const badGreeting = { ...both, greeting: { bytes: Buffer.from("not a video"), filename: "b.mp4", type: "video/mp4" } };
    await expectRefused(await upload(user, badGreeting), "video_type_not_allowed", "greeting");
    await expectRefused(await upload(user, { file: both.file }, { name: "x".repeat(33) }), "validation_failed", "name");
    // No session; no CSRF token.
    const stranger = new Browser(server.base, "10.9.250.1");
    await expectRefused(await stranger.upload("/api/v1/digital/figures", { files: { file: both.file } }), "not_logged_in");
    const noCsrf = await user.browser.upload("/api/v1/digital/figures", { files: { file: both.file } }, { csrf: null });
    expect(noCsrf.body.status).not.toBe(200);

    expect(await getDb().digitalFigure.count({ where: { ownerAccountId: user.id } })).toBe(0);
    expect(filesOf(user.id)).toEqual([]);
  });
});

/** The figure the first check passed, keyed again and removed by the tests after it (preparing a clip takes seconds). */
let prepared: { user: TUser; id: string } | undefined;

describe("the check and the preparation", () => {
  it("passes a green-screen clip, takes its key colour and orientation, and makes its loop and keyed still", async () => {
    const user = await makeUser();
    const created = await uploadOk(user, clips.green, { greeting: clips.short, name: "Anna" });
    expect(created).toMatchObject({ name: "Anna", state: "checking", stage: "measuring", posterUrl: null, loopUrl: null });
    expect(created.sourceUrl).toMatch(new RegExp(`^/files/media/${user.id}/figures/[A-Za-z0-9_-]+\\.mp4$`));
    expect(created.greetingUrl).toMatch(/\.mp4$/);

    expect(await runWorkerSteps(created.id)).toEqual(["done", "done"]);
    const figure = await user.caller.digitalFigures.get({ id: created.id });
    expect(figure).toMatchObject({ state: "ready", stage: "done", kind: "green_screen", orientation: "horizontal", errorCode: null });
    expect(figure.check.figure?.problems).toEqual([]);
    expect(figure.check.greeting?.problems).toEqual([]);
    const facts = figure.check.figure!.facts;
    expect(facts).toMatchObject({ width: 1280, height: 720, hasAudio: true, fps: 25 });
    expect(facts.durationMs).toBeGreaterThan(11_500);
    expect(facts.greenShare).toBeGreaterThan(0.9);
    expect(figure.key.similarity).toBe(30);
    expect(greenDistance(figure.key.color)).toBeLessThan(40);
    const poster = await fetchFile(figure.posterUrl!);
    expect([poster.http, poster.type]).toEqual([200, "image/png"]);
    // A PNG with an alpha channel (colour type 6).
    expect(poster.bytes[25]).toBe(6);
    expect((await fetchFile(figure.loopUrl!)).http).toBe(200);
    expect(figure.training).toMatchObject({ state: "none", canOrder: false, tooShort: true });
    const listed = await user.caller.digitalFigures.list();
    expect(listed.items.map((f) => f.id)).toEqual([created.id]);
    prepared = { user, id: created.id };
  });

  it.each([
    ["a 640x360 clip", "lowRes", "low_resolution"],
    ["a 5-second clip (with a 360p greeting video, below a greeting's 480p)", "short", "too_short"],
    ["a clip with no green screen", "notGreen", "not_green_screen"],
  ] as const)("refuses %s with its problem, and prepares nothing", async (_label, clip, problem) => {
    const user = await makeUser();
    const withGreeting = clip === "short";
    const created = await uploadOk(user, clips[clip], withGreeting ? { greeting: clips.lowRes } : {});
    expect(await runWorkerSteps(created.id)).toEqual(["refused"]);
    const figure = await user.caller.digitalFigures.get({ id: created.id });
    expect(figure).toMatchObject({ state: "check_failed", stage: "done", posterUrl: null, loopUrl: null });
    expect(figure.check.figure?.problems).toContain(problem);
    expect(figure.check.figure?.problems.filter((p) => p !== problem && p !== "no_face")).toEqual([]);
    // The greeting video is judged by its own limits: 12 seconds pass, 360p does not.
    expect(figure.check.greeting?.problems ?? null).toEqual(withGreeting ? ["low_resolution"] : null);
    expect(await refusal(user.caller.digitalFigures.saveKey({ id: created.id, color: "#00ff00", similarity: 30, blend: 10 }))).toMatchObject({
      code: "figure_state_refused",
      envelope: { description: "This figure cannot do that now: it is refused by the check" },
    });
  });
});

const greenDistance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return Math.hypot(r, g - 255, b);
};

/** A ready figure made straight in the database, with the check a clip of `durationMs` would have. */
async function makeReadyFigure(ownerAccountId: string, durationMs: number, state: "ready" | "checking" = "ready", o: { consent?: boolean } = {}) {
  const facts: TFilmingFacts = { durationMs, width: 1280, height: 720, fps: 25, hasAudio: true, faceFound: true, greenShare: 1, keyColor: "#00ff00" };
  const check = { stage: "done", figure: { facts, problems: [] }, greeting: null, preparedAt: new Date().toISOString() };
  return getDb().digitalFigure.create({
    data: {
      ownerAccountId,
      name: `Ready ${++n}`,
      state,
      sourceFileKey: `media/${ownerAccountId}/figures/src${n}.mp4`,
      loopFileKey: `media/${ownerAccountId}/figures/src${n}.loop.mp4`,
      posterFileKey: `media/${ownerAccountId}/figures/src${n}.keyed.png`,
      consentFileKey: o.consent === false ? null : `media/${ownerAccountId}/figures/consent${n}.mp4`,
      check: check as never,
    },
  });
}

describe("the figure's verbs", () => {
  it("keys a figure again: checks the settings, stays usable, and makes a new keyed still", async () => {
    const { user, id } = prepared!;
    const created = { id };
    const before = await user.caller.digitalFigures.get({ id: created.id });
    const posterBefore = (await fetchFile(before.posterUrl!)).bytes;

    for (const [input, message] of [
      [{ color: "green", similarity: 30, blend: 10 }, "Choose a colour as #rrggbb"],
      [{ color: "#00ff00", similarity: 0, blend: 10 }, "Similarity runs from 0.01 to 1"],
      [{ color: "#00ff00", similarity: 30, blend: 101 }, "Blend runs from 0 to 1"],
    ] as const) {
      expect(await refusal(user.caller.digitalFigures.saveKey({ id: created.id, ...input }))).toMatchObject({
        code: "validation_failed",
        envelope: { description: message },
      });
    }
    const saved = await user.caller.digitalFigures.saveKey({ id: created.id, color: "#00FF00", similarity: 80, blend: 0 });
    expect(saved).toMatchObject({ state: "ready", stage: "preparing", key: { color: "#00ff00", similarity: 80, blend: 0 } });
    expect(saved.posterUrl).toBe(before.posterUrl);
    expect(await runWorkerSteps(created.id)).toEqual(["done"]);
    const after = await user.caller.digitalFigures.get({ id: created.id });
    expect(after).toMatchObject({ state: "ready", stage: "done" });
    expect(after.posterUrl).not.toBe(before.posterUrl);
    expect((await fetchFile(after.posterUrl!)).bytes.equals(posterBefore)).toBe(false);
  });

  it("answers another account's figure as not found on every verb, and renames and removes one's own", async () => {
    const ada = await makeUser();
    const bob = await makeUser();
    const figure = await makeReadyFigure(ada.id, 3 * 60_000);
    const calls = [
      () => bob.caller.digitalFigures.get({ id: figure.id }),
      () => bob.caller.digitalFigures.rename({ id: figure.id, name: "mine" }),
      () => bob.caller.digitalFigures.remove({ id: figure.id }),
      () => bob.caller.digitalFigures.saveKey({ id: figure.id, color: "#00ff00", similarity: 20, blend: 5 }),
      () => bob.caller.digitalFigures.orderTraining({ id: figure.id }),
    ];
    for (const call of calls) expect((await refusal(call())).code).toBe("not_found");
    expect((await bob.caller.digitalFigures.list()).items).toEqual([]);
    const untouched = await figureRow(figure.id);
    expect(untouched).toMatchObject({ name: figure.name, deletedAt: null, keySimilarity: 30, state: "ready" });

    expect((await refusal(ada.caller.digitalFigures.rename({ id: figure.id, name: " " }))).code).toBe("validation_failed");
    expect(await ada.caller.digitalFigures.rename({ id: figure.id, name: "Anna at the desk" })).toMatchObject({ name: "Anna at the desk" });
  });

  it("removes a figure with its files, and keeps one whose training runs", async () => {
    const { user, id } = prepared!;
    const figure = await user.caller.digitalFigures.get({ id });
    // The filming and greeting videos, the loop and the keyed still.
    expect(filesOf(user.id).length).toBe(4);
    expect(await user.caller.digitalFigures.remove({ id: figure.id })).toEqual({ id: figure.id });
    expect(filesOf(user.id)).toEqual([]);
    expect((await fetchFile(figure.posterUrl!)).http).toBe(404);
    expect((await user.caller.digitalFigures.list()).items).toEqual([]);
    expect((await refusal(user.caller.digitalFigures.get({ id: figure.id }))).code).toBe("not_found");
    expect((await figureRow(figure.id)).deletedAt).not.toBeNull();

    const training = await makeReadyFigure(user.id, 3 * 60_000);
    await getDb().digitalFigure.update({ where: { id: training.id }, data: { state: "training" } });
    expect((await refusal(user.caller.digitalFigures.remove({ id: training.id }))).code).toBe("figure_state_refused");
    expect((await figureRow(training.id)).deletedAt).toBeNull();
  });
});

describe("the consent clip", () => {
  const consentPath = (id: string) => `/api/v1/digital/figures/${id}/consent`;

  it("keeps the person's consent video for an order, replacing an earlier one, and refuses what is no video", async () => {
    const user = await makeUser();
    const figure = await makeReadyFigure(user.id, TRAINING_MIN_MS + 30_000, "ready", { consent: false });
    const first = await user.browser.upload(consentPath(figure.id), { files: { file: { bytes: clips.short, filename: "consent.mp4", type: "video/mp4" } } });
    expect(first.body.status).toBe(200);
    const url = first.body.data.training.consentUrl as string;
    expect(url).toMatch(new RegExp(`^/files/media/${user.id}/figures/`));
    expect((await fetchFile(url)).bytes.equals(clips.short)).toBe(true);

    const again = await user.browser.upload(consentPath(figure.id), { files: { file: { bytes: clips.green, filename: "again.mp4", type: "video/mp4" } } });
    const second = again.body.data.training.consentUrl as string;
    expect(second).not.toBe(url);
    expect((await fetchFile(url)).http).toBe(404);

    for (const bytes of [Buffer.from("not a video at all"), Buffer.alloc(0)]) {
      const r = await user.browser.upload(consentPath(figure.id), { files: { file: { bytes, filename: "x.mp4", type: "video/mp4" } } });
      expect(r.http).toBeLessThan(500);
      expect(r.body.status).not.toBe(200);
    }
    expect((await user.caller.digitalFigures.get({ id: figure.id })).training.consentUrl).toBe(second);
  });

  it("takes none for another account's figure, a bought one, or one in training", async () => {
    const ada = await makeUser();
    const bob = await makeUser();
    const figure = await makeReadyFigure(ada.id, TRAINING_MIN_MS + 30_000, "ready", { consent: false });
    const file = { file: { bytes: clips.short, filename: "consent.mp4", type: "video/mp4" } };
    expect((await bob.browser.upload(consentPath(figure.id), { files: file })).body.status).toBe(ERROR_CODES.not_found.status);
    expect((await bob.browser.upload(consentPath("no-such-figure"), { files: file })).body.status).toBe(ERROR_CODES.not_found.status);
    await getDb().digitalFigure.update({ where: { id: figure.id }, data: { state: "training" } });
    expect((await ada.browser.upload(consentPath(figure.id), { files: file })).body.status).toBe(ERROR_CODES.figure_state_refused.status);
    expect((await figureRow(figure.id)).consentFileKey).toBeNull();
  });
});

describe("training orders", () => {
  it("refuses an order with no provider, a short clip or an unchecked figure, writing nothing and charging nothing", async () => {
    const user = await makeUser();
    await fundAccount(user.id, 2 * AVATAR_TRAINING_PRICE_MICRO, "spendable");
    const balance = () => getDb().ledgerAccount.findUnique({ where: { id: `spendable:${user.id}` }, select: { balanceMicro: true } });
    const before = await balance();
    // Other files' lip-sync models may train avatars: they are off for this case.
    const others = await getDb().model.findMany({ where: { kind: "lipsync", enabled: true }, select: { key: true } });
    await getDb().model.updateMany({ where: { key: { in: others.map((m) => m.key) } }, data: { enabled: false } });
    try {
      const long = await makeReadyFigure(user.id, TRAINING_MIN_MS + 30_000);
      expect(await refusal(user.caller.digitalFigures.orderTraining({ id: long.id }))).toMatchObject({ code: "digital_training_unavailable" });
      expect(await figureRow(long.id)).toMatchObject({ state: "ready", trainingJobId: null, errorCode: null, kind: "green_screen" });
    } finally {
      await getDb().model.updateMany({ where: { key: { in: others.map((m) => m.key) } }, data: { enabled: true } });
    }
    const short = await makeReadyFigure(user.id, TRAINING_MIN_MS - 1);
    expect((await refusal(user.caller.digitalFigures.orderTraining({ id: short.id }))).code).toBe("figure_footage_too_short");
    expect((await user.caller.digitalFigures.get({ id: short.id })).training).toMatchObject({ canOrder: false, tooShort: true, state: "none" });
    const checking = await makeReadyFigure(user.id, TRAINING_MIN_MS + 30_000, "checking");
    expect((await refusal(user.caller.digitalFigures.orderTraining({ id: checking.id }))).code).toBe("figure_state_refused");
    const unconsented = await makeReadyFigure(user.id, TRAINING_MIN_MS + 30_000, "ready", { consent: false });
    expect((await refusal(user.caller.digitalFigures.orderTraining({ id: unconsented.id }))).code).toBe("figure_consent_missing");
    expect((await user.caller.digitalFigures.get({ id: unconsented.id })).training.consentUrl).toBeNull();

    expect(await getDb().mediaJob.count({ where: { ownerAccountId: user.id } })).toBe(0);
    expect(await balance()).toEqual(before);
  });

  describe("at HeyGen (the loopback fake)", () => {
    let heygen: TFakeHeygen;
    let disabled: string[] = [];
    beforeAll(async () => {
      process.env.PUBLIC_URL = "https://zelin.example";
      resetEnvCache();
      registerFigureHooks();
      heygen = await startFakeHeygen();
      // Other files' lip-sync models (their fakes long gone) must not be chosen here.
      disabled = (await getDb().model.findMany({ where: { kind: "lipsync", enabled: true }, select: { id: true } })).map((m) => m.id);
      await getDb().model.updateMany({ where: { id: { in: disabled } }, data: { enabled: false } });
      const key = `heygen-${run}`;
      await getDb().model.create({ data: { key, displayName: "HeyGen", kind: "lipsync", upstreamModel: "heygen-v2", unitPriceMicro: 0 } });
      await getDb().channel.create({
        data: { name: `heygen ${run}`, type: "heygen", baseUrl: heygen.url, keyEncrypted: sealSecret(heygen.apiKey), keyHint: "…", models: [key] },
      });
    });
    afterAll(async () => {
      clearJobEndHooks();
      await getDb().model.updateMany({ where: { key: `heygen-${run}` }, data: { enabled: false } });
      await getDb().model.updateMany({ where: { id: { in: disabled } }, data: { enabled: true } });
      delete process.env.PUBLIC_URL;
      resetEnvCache();
      await heygen?.close();
    });
    beforeEach(async () => {
      // Jobs other files left waiting would take this test's queue turns.
      await getDb().mediaJob.updateMany({
        where: { state: { in: ["queued", "generating", "background"] } },
        data: { state: "failed", errorCode: "test_cleared" },
      });
    });

    /** Dispatches the job, then polls it until it ends. */
    async function runTraining(jobId: string) {
      await handleMediaDispatch();
      for (let i = 0; i < 10; i++) {
        const row = await getDb().mediaJob.findUniqueOrThrow({ where: { id: jobId } });
        if (["done", "failed", "failed_review"].includes(row.state)) return row;
        await handleMediaPoll({ jobId });
      }
      return getDb().mediaJob.findUniqueOrThrow({ where: { id: jobId } });
    }
    const balanceOf = async (id: string) =>
      Number((await getDb().ledgerAccount.findUnique({ where: { id: `spendable:${id}` }, select: { balanceMicro: true } }))?.balanceMicro ?? 0);

    it("holds the price when ordered, and makes the figure trained with HeyGen's avatar, charged once", async () => {
      const user = await makeUser();
      await fundAccount(user.id, AVATAR_TRAINING_PRICE_MICRO + 1_000_000, "spendable");
      const before = await balanceOf(user.id);
      const figure = await makeReadyFigure(user.id, TRAINING_MIN_MS + 60_000);
      const order = await user.caller.digitalFigures.orderTraining({ id: figure.id });
      expect(order.holdMicro).toBe(AVATAR_TRAINING_PRICE_MICRO);
      expect(order.figure).toMatchObject({ state: "training", training: { state: "training", canOrder: false } });
      expect(order.figure.training.orderedAt).not.toBeNull();
      expect(await balanceOf(user.id)).toBe(before - AVATAR_TRAINING_PRICE_MICRO);
      // A second order while it trains is refused.
      expect((await refusal(user.caller.digitalFigures.orderTraining({ id: figure.id }))).code).toBe("figure_state_refused");

      const row = await figureRow(figure.id);
      expect((await runTraining(row.trainingJobId!)).state).toBe("done");
      const avatarId = [...heygen.jobs.values()].find((j) => j.kind === "avatar")!.id;
      expect(await figureRow(figure.id)).toMatchObject({ state: "ready", kind: "trained", provider: "heygen", providerAvatarId: avatarId });
      expect((await user.caller.digitalFigures.get({ id: figure.id })).training).toMatchObject({ state: "trained", canOrder: false });
      expect(await balanceOf(user.id)).toBe(before - AVATAR_TRAINING_PRICE_MICRO);
    });

    it("leaves the figure a usable green-screen figure, and returns the money, when the training fails", async () => {
      const user = await makeUser();
      await fundAccount(user.id, AVATAR_TRAINING_PRICE_MICRO, "spendable");
      const before = await balanceOf(user.id);
      const figure = await makeReadyFigure(user.id, TRAINING_MIN_MS + 60_000);
      heygen.behave({ outcome: "no_face" });
      await user.caller.digitalFigures.orderTraining({ id: figure.id });
      const row = await figureRow(figure.id);
      expect((await runTraining(row.trainingJobId!)).state).toBe("failed");
      const view = await user.caller.digitalFigures.get({ id: figure.id });
      expect(view).toMatchObject({ state: "train_failed", kind: "green_screen", training: { state: "failed", errorCode: "digital_no_face", canOrder: true } });
      expect(view.posterUrl).toMatch(/\.keyed\.png/);
      expect(await balanceOf(user.id)).toBe(before);
      heygen.behave({});
    });
  });

  it("makes the figure trained when its training is done, and leaves it a green-screen figure when it fails", async () => {
    const user = await makeUser();
    const ok = await makeReadyFigure(user.id, TRAINING_MIN_MS + 30_000);
    const bad = await makeReadyFigure(user.id, TRAINING_MIN_MS + 30_000);
    // As an order leaves them: in training with the job's id.
    for (const [f, jobId] of [
      [ok, `mjtrain${run}a`],
      [bad, `mjtrain${run}b`],
    ] as const)
      await getDb().digitalFigure.update({ where: { id: f.id }, data: { state: "training", trainingJobId: jobId } });
    const ended = (id: string, state: "done" | "failed", result: Record<string, string> | null, errorCode: string | null) => ({
      id,
      kind: "avatar_training" as const,
      ownerAccountId: user.id,
      state,
      params: {},
      outputs: [],
      result,
      errorCode,
    });
    await withTransaction((tx) => applyTrainingEnd(ended(`mjtrain${run}a`, "done", { avatarId: "av-123", provider: "heygen" }, null), tx));
    await withTransaction((tx) => applyTrainingEnd(ended(`mjtrain${run}b`, "failed", null, "digital_no_face"), tx));
    expect(await user.caller.digitalFigures.get({ id: ok.id })).toMatchObject({
      state: "ready",
      kind: "trained",
      training: { state: "trained", provider: "heygen" },
    });
    expect(await figureRow(ok.id)).toMatchObject({ providerAvatarId: "av-123", provider: "heygen" });
    const failed = await user.caller.digitalFigures.get({ id: bad.id });
    expect(failed).toMatchObject({ state: "train_failed", kind: "green_screen", training: { state: "failed", errorCode: "digital_no_face", canOrder: true } });
    expect(failed.posterUrl).toMatch(/\.keyed\.png/);
    // A second ending of the same job changes nothing.
    await withTransaction((tx) => applyTrainingEnd(ended(`mjtrain${run}a`, "failed", null, "generation_failed"), tx));
    expect((await figureRow(ok.id)).state).toBe("ready");
  });
});
