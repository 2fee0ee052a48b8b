// The multimedia library: pictures and videos with names, uploaded through the upload
// service, 100 a day per account (deleted ones count), renamed, deleted with their files, gated by
// the edition, and invisible to other accounts on every verb.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import * as media from "../../server/media/media.service";
import { ZListMediaInput, ZRenameMediaInput } from "../../server/media/media.schema";
import { MEDIA_UPLOADS_PER_DAY, MB } from "../../server/uploads/upload-limits";
import { Browser } from "../helpers/api-client";
import { makePng } from "../helpers/png";
import { makeDocx, makeExe, makeMp4 } from "../helpers/sample-files";
import { useApiWithTempFiles } from "../helpers/temp-files-api";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-media-");
let n = 0;

async function makeUser(edition: "basic" | "professional" = "professional") {
  const row = await getDb().account.create({
    data: {
      account: `md${run}${++n}`,
      nickname: `Media ${n}`,
      roles: ["individual_developer"] as never,
      edition,
      editionExpiresAt: edition === "basic" ? null : new Date(Date.now() + 30 * 86_400_000),
    },
    select: { id: true },
  });
  const { token } = await startSession(row.id);
  const browser = new Browser(server.base, `10.9.${n}.1`);
  browser.cookies.set("zl_session", token);
  return { id: row.id, browser, account: { id: row.id } };
}

type TUser = Awaited<ReturnType<typeof makeUser>>;
const upload = (user: TUser, bytes: Uint8Array, filename = "photo.png", fields: Record<string, string> = {}, lang = "en") =>
  user.browser.upload("/api/v1/media", { fields, files: { file: { bytes, filename } } }, { lang });

/** Stored files of the account's library (not the small type files beside them). */
const filesOf = (accountId: string) => {
  const dir = path.join(server.dataDir, "files", "media", accountId);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.endsWith(".meta.json")) : [];
};
const rowsOf = (accountId: string) => getDb().mediaItem.count({ where: { ownerAccountId: accountId } });

async function refusal(p: Promise<unknown>, lng = "en") {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, lng);
}

/** Rows as if uploaded earlier: `count` uploads at `at`, the first `deleted` of them deleted. */
async function seedUploads(accountId: string, count: number, at: Date, deleted = 0) {
  await getDb().mediaItem.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      ownerAccountId: accountId,
      name: `seed-${i}.png`,
      kind: "image" as const,
      fileKey: i < deleted ? null : `media/${accountId}/seed${i}.png`,
      mime: "image/png",
      size: 100,
      width: 400,
      height: 400,
      createdAt: at,
      deletedAt: i < deleted ? at : null,
    })),
  });
}

describe("uploading", () => {
  it("keeps a picture with its name and pixel size, serves it publicly under an unguessable key, and lists it", async () => {
    const user = await makeUser();
    const png = makePng(800, 600, 70);
    const res = await upload(user, png, "2026年春季发布会主视觉海报最终版本.png");
    expect(res.body.status).toBe(200);
    const item = res.body.data;
    expect(item).toMatchObject({ name: "2026年春季发布会主视觉海报最终版本.png", kind: "image", mime: "image/png", size: png.length, width: 800, height: 600 });
    expect(item.url).toMatch(new RegExp(`^/files/media/${user.id}/[A-Za-z0-9_-]{18,}\\.png$`));
    expect(item).not.toHaveProperty("fileKey");

    const served = await new Browser(server.base).fetchRaw(item.url);
    expect(served.http).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.compare(served.bytes, png)).toBe(0);

    const video = await upload(user, makeMp4(64 * 1024), "clip.mov", { name: "  Product demo  " });
    expect(video.body.data).toMatchObject({ name: "Product demo", kind: "video", mime: "video/mp4", width: null, height: null });

    const all = await media.listMedia(user.account, ZListMediaInput.parse({}));
    expect(all.items.map((i) => i.id)).toEqual([video.body.data.id, item.id]);
    expect(all.total).toBe(2);
    expect((await media.listMedia(user.account, ZListMediaInput.parse({ kind: "image" }))).items.map((i) => i.id)).toEqual([item.id]);
    expect((await media.listMedia(user.account, { kind: "video", page: 1, pageSize: 1 })).items).toHaveLength(1);
    expect((await media.listMedia(user.account, ZListMediaInput.parse({ page: 2, pageSize: 1 }))).items.map((i) => i.id)).toEqual([item.id]);
    expect(await media.getMediaQuota(user.account)).toMatchObject({ used: 2, limit: 100, remaining: 98 });
  });

  it("refuses a renamed executable, an empty file, a document, an oversized or too small picture, and writes nothing", async () => {
    const user = await makeUser();
    const exe = await upload(user, makeExe(), "holiday.png");
    expect(exe.body).toMatchObject({ status: 420018, description: "The file is empty or contains prohibited content" });
    expect((await upload(user, Buffer.alloc(0), "empty.png")).body.status).toBe(420018);
    expect((await upload(user, makeDocx("正文"), "notes.mp4")).body).toMatchObject({
      status: 420206,
      description: "Only JPG or PNG pictures and MP4, MOV or WebM videos are allowed",
    });
    const big = await upload(user, Buffer.concat([makePng(400, 400), Buffer.alloc(21 * MB)]), "big.png");
    expect(big.http).toBe(413);
    expect(big.body).toMatchObject({ status: 420017, description: "File too large" });
    expect((await upload(user, makePng(200, 900), "thin.png")).body.status).toBe(420202);
    expect((await upload(user, makePng(400, 400), "x.png", { name: "x".repeat(65) })).body.status).toBe(400001);
    expect((await upload(user, makeExe(), "a.png", {}, "zh_hans")).body.description).toBe("文件为空或包含违规内容");
    expect(filesOf(user.id)).toEqual([]);
    expect(await rowsOf(user.id)).toBe(0);
  });

  it("needs a session and the CSRF header", async () => {
    const user = await makeUser();
    expect((await user.browser.upload("/api/v1/media", { files: { file: { bytes: makePng(400, 400) } } }, { csrf: null })).body.status).toBe(420114);
    expect((await new Browser(server.base).upload("/api/v1/media", { files: { file: { bytes: makePng(400, 400) } } })).body.status).toBe(110003);
    expect(await rowsOf(user.id)).toBe(0);
  });
});

describe("100 uploads a day", () => {
  it("refuses the 101st with the time it resets, writing nothing; deleted uploads still count", async () => {
    const user = await makeUser();
    // 99 earlier today (20 of them since deleted), and one more through the API: 100.
    const { start } = media.uploadDay(new Date());
    await seedUploads(user.id, MEDIA_UPLOADS_PER_DAY - 1, new Date(Math.max(start.getTime(), Date.now() - 60_000)), 20);
    expect((await upload(user, makePng(400, 400), "hundredth.png")).body.status).toBe(200);
    const before = { files: filesOf(user.id), rows: await rowsOf(user.id) };
    expect(before).toMatchObject({ rows: 100 });
    expect(before.files).toHaveLength(1);

    const refused = await upload(user, makePng(400, 400), "one-too-many.png");
    expect(refused.http).toBe(429);
    expect(refused.body.status).toBe(420208);
    expect(refused.body.description).toMatch(/^You have reached today's limit of 100 uploads\. It resets at midnight China time \(UTC\+8\), in \d+ h \d+ min$/);
    expect(new Date(refused.body.data.reset_at).getTime()).toBe(media.uploadDay(new Date()).resetAt.getTime());
    expect((await upload(user, makePng(400, 400), "x.png", {}, "zh_hans")).body.description).toMatch(
      /^今日已上传 100 个文件，达到每日上限。额度于北京时间 0 点重置（\d+ 小时 \d+ 分钟后）$/,
    );
    expect(filesOf(user.id)).toEqual(before.files);
    expect(await rowsOf(user.id)).toBe(100);
    expect(await media.getMediaQuota(user.account)).toMatchObject({ used: 100, remaining: 0 });
  });

  it("counts per China day: yesterday's uploads leave today free", async () => {
    const user = await makeUser();
    const { start } = media.uploadDay(new Date());
    await seedUploads(user.id, MEDIA_UPLOADS_PER_DAY, new Date(start.getTime() - 1000));
    expect((await upload(user, makePng(400, 400))).body.status).toBe(200);
    // The day turns at 16:00 UTC (midnight UTC+8).
    expect(media.uploadDay(new Date("2026-03-01T15:59:59Z")).start.toISOString()).toBe("2026-02-28T16:00:00.000Z");
    expect(media.uploadDay(new Date("2026-03-01T16:00:00Z")).start.toISOString()).toBe("2026-03-01T16:00:00.000Z");
    expect(media.uploadDay(new Date("2026-03-01T16:00:00Z")).resetAt.toISOString()).toBe("2026-03-02T16:00:00.000Z");
  });

  it("two racing uploads for the last place: one is kept, the other refused and its file removed", async () => {
    const user = await makeUser();
    await seedUploads(user.id, MEDIA_UPLOADS_PER_DAY - 1, new Date());
    const answers = await Promise.all([upload(user, makePng(400, 400, 10), "a.png"), upload(user, makePng(400, 400, 20), "b.png")]);
    expect(answers.map((a) => a.body.status).sort()).toEqual([200, 420208]);
    expect(await rowsOf(user.id)).toBe(100);
    expect(filesOf(user.id)).toHaveLength(1);
  });
});

describe("renaming and deleting", () => {
  it("renames, refusing a blank or too long name", async () => {
    const user = await makeUser();
    const { id } = (await upload(user, makePng(400, 400), "before.png")).body.data;
    expect(await media.renameMedia(user.account, ZRenameMediaInput.parse({ id, name: "  封面图  " }))).toMatchObject({ id, name: "封面图" });
    // Names are refused by the procedure's input schema, before the service runs.
    expect((await refusal(ZRenameMediaInput.parseAsync({ id, name: "   " }))).envelope).toMatchObject({
      status: 400001,
      description: "This field is required",
    });
    expect((await refusal(ZRenameMediaInput.parseAsync({ id, name: "长".repeat(65) }))).envelope.status).toBe(400001);
    expect((await media.getMedia(user.account, { id })).name).toBe("封面图");
  });

  it("deleting clears the file from the store; the row stays and still counts toward the day", async () => {
    const user = await makeUser();
    const item = (await upload(user, makePng(400, 400), "gone.png")).body.data;
    expect(filesOf(user.id)).toHaveLength(1);
    expect(await media.deleteMedia(user.account, { id: item.id })).toEqual({ id: item.id });
    expect(filesOf(user.id)).toEqual([]);
    expect((await new Browser(server.base).fetchRaw(item.url)).http).toBe(404);
    const row = await getDb().mediaItem.findUnique({ where: { id: item.id } });
    expect(row).toMatchObject({ fileKey: null });
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect((await media.listMedia(user.account, ZListMediaInput.parse({}))).total).toBe(0);
    expect((await media.getMediaQuota(user.account)).used).toBe(1);
    // Gone is gone: every verb now answers not-found.
    for (const call of [
      () => media.getMedia(user.account, { id: item.id }),
      () => media.renameMedia(user.account, { id: item.id, name: "back" }),
      () => media.deleteMedia(user.account, { id: item.id }),
    ]) {
      expect((await refusal(call())).envelope.status).toBe(404001);
    }
  });
});

describe("who may use it", () => {
  it("another account's item is not found on every verb, and stays as it was", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const item = (await upload(owner, makePng(400, 400), "mine.png")).body.data;
    for (const call of [
      () => media.getMedia(other.account, { id: item.id }),
      () => media.renameMedia(other.account, { id: item.id, name: "theirs" }),
      () => media.deleteMedia(other.account, { id: item.id }),
    ]) {
      expect((await refusal(call())).envelope).toMatchObject({ status: 404001 });
    }
    expect((await media.listMedia(other.account, ZListMediaInput.parse({}))).items).toEqual([]);
    expect(await media.getMedia(owner.account, { id: item.id })).toMatchObject({ name: "mine.png" });
    expect(filesOf(owner.id)).toHaveLength(1);
  });

  it("the basic edition gets the upgrade refusal on every verb, and nothing is written", async () => {
    const user = await makeUser("basic");
    const res = await upload(user, makePng(400, 400));
    expect(res.http).toBe(402);
    expect(res.body).toMatchObject({
      status: 420113,
      description: "Your edition does not include this: upgrade to Professional",
      data: { feature: "multimediaLibrary" },
    });
    for (const call of [
      () => media.listMedia(user.account, ZListMediaInput.parse({})),
      () => media.getMediaQuota(user.account),
      () => media.getMedia(user.account, { id: "x" }),
      () => media.renameMedia(user.account, { id: "x", name: "y" }),
      () => media.deleteMedia(user.account, { id: "x" }),
    ]) {
      expect((await refusal(call())).code).toBe("edition_upgrade_required");
    }
    expect(filesOf(user.id)).toEqual([]);
    expect(await rowsOf(user.id)).toBe(0);
  });
});
