// Derivatives of the multimedia library and of app icons, end to end on the real services: an
// upload through the REST route queues the job "media.derive"; its handler, run with the worker's
// real file tools (sharp, ffmpeg), keeps the file's facts and derivative keys in the item's meta;
// the item's views then carry thumbnail, poster and playable-copy URLs that /files/ serves. A file
// the tools cannot read leaves the item on its original; deleting takes the derivatives along. An
// app icon may be 200 px a side and is answered at its 200x200 copy's address, served from the
// original until the copy is made.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { getQueue } from "../../server/jobs/queue";
import { setFileWork } from "../../server/media/file-work";
import { deriveStoredMedia, handleMediaDerive } from "../../server/media/media-derive.service";
import * as media from "../../server/media/media.service";
import { createFileWork } from "../../workers/media";
import { Browser } from "../helpers/api-client";
import { makePng } from "../helpers/png";
import { makeMp4 } from "../helpers/sample-files";
import { useApiWithTempFiles } from "../helpers/temp-files-api";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/media");
const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-media-derive-");
let n = 0;

beforeAll(() => setFileWork(createFileWork()));
afterAll(() => setFileWork(null));

async function makeUser() {
  const row = await getDb().account.create({
    data: {
      account: `mdv${run}${++n}`,
      nickname: `Derive ${n}`,
      roles: ["individual_developer"] as never,
      edition: "professional",
      editionExpiresAt: new Date(Date.now() + 30 * 86_400_000),
    },
    select: { id: true },
  });
  const { token } = await startSession(row.id);
  const browser = new Browser(server.base, `10.8.${n}.1`);
  browser.cookies.set("zl_session", token);
  return { id: row.id, browser, account: { id: row.id } };
}
type TUser = Awaited<ReturnType<typeof makeUser>>;

const upload = async (user: TUser, bytes: Uint8Array, filename: string) => {
  const res = await user.browser.upload("/api/v1/media", { files: { file: { bytes, filename } } });
  expect(res.body.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; url: string; thumbUrl: string | null; posterUrl: string | null; playUrl: string | null; durationMs: number | null };
};
const fetchFile = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${server.base}${url}`, { headers }).then(async (res) => ({ http: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }));
/** A PNG's size, from its header. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });
const isWebp = (bytes: Buffer) => bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP";
const isJpeg = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
const metaOf = async (id: string) => (await getDb().mediaItem.findUniqueOrThrow({ where: { id }, select: { meta: true } })).meta as Record<string, unknown>;
/** Stored files of the account's library whose name starts with the item's key. */
const filesOf = (accountId: string, url: string) => {
  const base = path.basename(url).replace(/\.[a-z0-9]+$/, "");
  return fs
    .readdirSync(path.join(server.dataDir, "files", "media", accountId))
    .filter((f) => f.startsWith(`${base}.`) && !f.endsWith(".meta.json"))
    .sort();
};

describe("library derivatives", () => {
  it("queues the job on upload; the handler makes a picture's web size and thumbnail, served by /files/", async () => {
    const user = await makeUser();
    const item = await upload(user, makePng(2000, 1000), "banner.png");
    expect(item).toMatchObject({ thumbUrl: null, posterUrl: null, playUrl: null, durationMs: null });

    const job = await getQueue("media-files").getJob(`media-derive-${item.id}`);
    expect(job?.name).toBe("media.derive");
    expect(job?.data).toEqual({ mediaItemId: item.id });
    expect(await handleMediaDerive(job!.data)).toBe("done");
    await job!.remove();

    const base = item.url.replace(/^\/files\//, "").replace(/\.png$/, "");
    expect(await metaOf(item.id)).toMatchObject({ width: 2000, height: 1000, web: `${base}.web.webp`, thumb: `${base}.thumb.webp`, poster: null, play: null });
    const view = await media.getMedia(user.account, { id: item.id });
    expect(view).toMatchObject({ url: item.url, thumbUrl: `/files/${base}.thumb.webp`, posterUrl: null, playUrl: null, durationMs: null });
    const thumb = await fetchFile(view.thumbUrl!);
    expect(thumb.http).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    expect(isWebp(thumb.bytes)).toBe(true);
    expect((await fetchFile(`/files/${base}.web.webp`)).http).toBe(200);
    // The list shows the same.
    const listed = await media.listMedia(user.account, { page: 1, pageSize: 12 });
    expect(listed.items[0]).toMatchObject({ id: item.id, thumbUrl: view.thumbUrl });
  });

  it("gives a WebM video its duration, a poster and a playable MP4 that seeks; an MP4 sample keeps playing as it is", async () => {
    const user = await makeUser();
    const webm = await upload(user, fs.readFileSync(path.join(FIXTURES, "sample.webm")), "clip.webm");
    const meta = await deriveStoredMedia(webm.id);
    expect(meta).toMatchObject({ durationMs: 2000, videoCodec: "vp8", audioCodec: null, width: 320, height: 240 });
    const view = await media.getMedia(user.account, { id: webm.id });
    expect(view).toMatchObject({ width: 320, height: 240, durationMs: 2000, thumbUrl: null });
    expect(view.posterUrl).toMatch(/\.poster\.jpg$/);
    expect(view.playUrl).toMatch(/\.play\.mp4$/);

    const poster = await fetchFile(view.posterUrl!);
    expect([poster.http, poster.headers.get("content-type"), isJpeg(poster.bytes)]).toEqual([200, "image/jpeg", true]);
    const part = await fetchFile(view.playUrl!, { range: "bytes=0-99" });
    expect([part.http, part.headers.get("content-type"), part.bytes.length]).toEqual([206, "video/mp4", 100]);
    expect(part.bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");

    const mp4 = await upload(user, fs.readFileSync(path.join(FIXTURES, "sample.mp4")), "clip.mp4");
    expect(await deriveStoredMedia(mp4.id)).toMatchObject({ videoCodec: "h264", audioCodec: "aac", play: null });
    expect(await media.getMedia(user.account, { id: mp4.id })).toMatchObject({
      playUrl: null,
      durationMs: 2000,
      posterUrl: expect.stringMatching(/\.poster\.jpg$/),
    });
  });

  it("leaves a video the tools cannot read on its original, with the tools' reason and no derivative", async () => {
    const user = await makeUser();
    // An MP4's signature over noise passes the upload's checks, but no decoder can read it.
    const broken = await upload(user, makeMp4(64 * 1024), "broken.mp4");
    await expect(handleMediaDerive({ mediaItemId: broken.id })).rejects.toThrow(/^probing the file failed: /);
    expect(await metaOf(broken.id)).toEqual({});
    expect(await media.getMedia(user.account, { id: broken.id })).toMatchObject({ url: broken.url, posterUrl: null, playUrl: null, durationMs: null });
    expect(filesOf(user.id, broken.url)).toEqual([path.basename(broken.url)]);
  });

  it("takes the derivatives along when the item is deleted, and makes none for an item deleted before its turn", async () => {
    const user = await makeUser();
    const item = await upload(user, makePng(600, 600), "square.png");
    await deriveStoredMedia(item.id);
    const thumbUrl = (await media.getMedia(user.account, { id: item.id })).thumbUrl!;
    expect(filesOf(user.id, item.url)).toHaveLength(3);
    await media.deleteMedia(user.account, { id: item.id });
    expect(filesOf(user.id, item.url)).toEqual([]);
    expect((await fetchFile(thumbUrl)).http).toBe(404);

    const late = await upload(user, makePng(600, 600), "late.png");
    await media.deleteMedia(user.account, { id: late.id });
    expect(await handleMediaDerive({ mediaItemId: late.id })).toBe("gone");
    expect(await handleMediaDerive({ mediaItemId: "no-such-item" })).toBe("gone");
    expect(filesOf(user.id, late.url)).toEqual([]);
  });

  it("fails loudly in a process that has no file tools", async () => {
    const user = await makeUser();
    const item = await upload(user, makePng(400, 400), "x.png");
    setFileWork(null);
    try {
      await expect(deriveStoredMedia(item.id)).rejects.toThrow(/^media file work \(sharp, ffmpeg\) is not wired in this process/);
    } finally {
      setFileWork(createFileWork());
    }
    expect(await metaOf(item.id)).toEqual({});
  });
});

describe("app icons", () => {
  const uploadIcon = (user: TUser, bytes: Uint8Array, query = "?purpose=icon", lang = "en") =>
    user.browser.upload(`/api/v1/uploads/image${query}`, { files: { file: { bytes, filename: "icon.png" } } }, { lang });

  it("takes a 200 px icon that other pictures refuse, in the user's language with the right sides", async () => {
    const user = await makeUser();
    const picture = await uploadIcon(user, makePng(200, 200), "");
    expect(picture.body).toMatchObject({ status: 420202, description: "The picture must be at least 300 px and at most 5000 px on each side" });
    const small = await uploadIcon(user, makePng(150, 300), "?purpose=icon", "zh_hans");
    expect(small.body).toMatchObject({ status: 420202, description: "图片每边须至少 200 像素、至多 5000 像素" });
    expect((await uploadIcon(user, makePng(400, 400), "?purpose=favicon")).body.status).toBe(400001);
    expect((await uploadIcon(user, makePng(200, 200))).body.status).toBe(200);
  });

  it("answers the 200x200 copy's URL, served from the original until the worker has made it", async () => {
    const user = await makeUser();
    const original = makePng(640, 480);
    const res = await uploadIcon(user, original);
    const url: string = res.body.data.url;
    expect(url).toMatch(new RegExp(`^/files/images/${user.id}/[A-Za-z0-9_-]{18,}\\.icon\\.png$`));
    const key = url.replace(/^\/files\//, "");

    const before = await fetchFile(url);
    expect([before.http, before.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect(Buffer.compare(before.bytes, original)).toBe(0);

    const jobs = await getQueue("media-files").getJobs(["waiting", "delayed", "prioritized"]);
    const job = jobs.find((j) => j.name === "media.derive" && (j.data as { fileKey?: string }).fileKey === key.replace(/\.icon\.png$/, ".png"));
    expect(job?.data).toEqual({ fileKey: key.replace(/\.icon\.png$/, ".png"), purpose: "icon" });
    expect(await handleMediaDerive(job!.data)).toBe("done");
    await job!.remove();

    const after = await fetchFile(url);
    expect([after.http, after.headers.get("content-type"), after.headers.get("cache-control")]).toEqual([
      200,
      "image/png",
      "public, max-age=31536000, immutable",
    ]);
    expect(pngSize(after.bytes)).toEqual({ width: 200, height: 200 });
    // Only icons fall back, and only to their own original.
    expect((await fetchFile(url.replace(/\.icon\.png$/, ".thumb.webp"))).http).toBe(404);
    expect((await fetchFile(`/files/images/${user.id}/nothing.icon.png`)).http).toBe(404);
    expect((await fetchFile(`/files/private/${user.id}/x.icon.png`)).http).toBe(404);
  });
});

describe("other public pictures", () => {
  it("gives an uploaded avatar a web-sized copy and a thumbnail beside it, made by the worker", async () => {
    const user = await makeUser();
    const res = await user.browser.upload("/api/v1/uploads/image", { files: { file: { bytes: makePng(2400, 1800), filename: "avatar.png" } } });
    expect(res.body.status, JSON.stringify(res.body)).toBe(200);
    const url: string = res.body.data.url;
    const key = url.replace(/^\/files\//, "");
    const jobs = await getQueue("media-files").getJobs(["waiting", "delayed", "prioritized"]);
    const job = jobs.find((j) => j.name === "media.derive" && (j.data as { fileKey?: string }).fileKey === key);
    expect(job?.data).toEqual({ fileKey: key, purpose: "picture" });
    expect(await handleMediaDerive(job!.data)).toBe("done");
    await job!.remove();
    const web = await fetchFile(url.replace(/\.png$/, ".web.webp"));
    const thumb = await fetchFile(url.replace(/\.png$/, ".thumb.webp"));
    expect([web.http, isWebp(web.bytes), thumb.http, isWebp(thumb.bytes)]).toEqual([200, true, 200, true]);
    expect(thumb.bytes.length).toBeLessThan(web.bytes.length);
    // The original is still what its URL serves.
    expect((await fetchFile(url)).headers.get("content-type")).toBe("image/png");
  });
});
