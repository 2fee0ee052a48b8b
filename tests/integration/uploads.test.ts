// Uploads: checked by size, by content type and by pixel size, never by the
// name; refused uploads write nothing; accepted avatars are served back as they were sent.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { LocalFileStore } from "../../server/uploads/file-store";
import { parseEnv, resetEnvCache } from "../../server/env";
import { isAppError } from "../../server/errors/app-error";
import { dropSingleton } from "../../server/lib/singleton";
import { S3FileStore } from "../../server/uploads/s3-file-store";
import { sniffType, readImageSize } from "../../server/uploads/sniff";
import { acceptImage, acceptMedia, acceptTextFile, acceptVideo, assertFileCount } from "../../server/uploads/uploads.service";
import { GREETING_VIDEO_LIMITS, MB, MEDIA_IMAGE_LIMITS, MEDIA_VIDEO_LIMITS, TEXT_FILE_LIMITS, TRAINING_FILE_LIMITS } from "../../server/uploads/upload-limits";
import { Browser } from "../helpers/api-client";
import { useApiWithTempFiles } from "../helpers/temp-files-api";
import { makePdf, makePng } from "../helpers/png";
import { startFakeS3 } from "../fakes/fake-s3";
import { makeDocx, makeElf, makeExe, makeMov, makeMp4, makeWebm, makeZip } from "../helpers/sample-files";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-uploads-");
const dataDir = server.dataDir;

const filesUnder = (dir: string): string[] => {
  const full = path.join(dataDir, "files", dir);
  return fs.existsSync(full)
    ? fs
        .readdirSync(full, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];
};

async function signUp(name: string, ip: string) {
  const browser = new Browser(server.base, ip);
  const res = await browser.call("/api/v1/auth/register", { body: { account: name, password: "secret123", confirm: "secret123", agreed: true } });
  expect(res.body.status).toBe(200);
  return { browser, id: res.body.data.account.id as string };
}

describe("content sniffing", () => {
  it("decides the type by the first bytes, not the name", () => {
    expect(sniffType(makePng(1, 1))).toBe("png");
    expect(sniffType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe("jpeg");
    expect(sniffType(Buffer.from("%PDF-1.7\n"))).toBe("pdf");
    expect(sniffType(Buffer.from("MZ\x90\x00 this program cannot be run in DOS mode"))).toBeNull();
    expect(readImageSize(makePng(640, 360))).toEqual({ width: 640, height: 360 });
    expect(readImageSize(Buffer.from("not a picture"))).toBeNull();
  });

  it("knows videos, docx, pdf and text by their bytes, and never an executable", () => {
    expect(sniffType(makeMp4())).toBe("mp4");
    expect(sniffType(makeMov())).toBe("mov");
    expect(sniffType(makeWebm())).toBe("webm");
    expect(sniffType(makeDocx("合同正文"))).toBe("docx");
    expect(sniffType(makeZip({ "notes/readme.txt": "a zip, not a document" }))).toBeNull();
    expect(sniffType(makePdf())).toBe("pdf");
    expect(sniffType(Buffer.from("第一行\n second line\tand a tab\n"))).toBe("txt");
    expect(sniffType(Buffer.from("plain words", "utf16le"))).toBeNull(); // NUL bytes: not text we read
    expect(sniffType(Buffer.from([0xd6, 0xd0, 0xce, 0xc4]))).toBe("txt"); // "中文" in GB18030
    // HEIF pictures share MP4's container but are not videos.
    const heic = makeMp4();
    heic.write("heic", 8, "latin1");
    expect(sniffType(heic)).toBeNull();
    for (const exe of [makeElf(), makeExe(), Buffer.from("#!/bin/sh\nrm -rf /\n")]) expect(sniffType(exe)).toBeNull();
    // Plain ASCII after an MZ header would decode as text: the header decides first.
    expect(sniffType(Buffer.from("MZ this looks like text but is a DOS program header"))).toBeNull();
  });

  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      if (isAppError(err)) return err.code;
      throw err;
    }
    return "accepted";
  };

  it("acceptTextFile takes txt, docx and pdf by content, and refuses the rest", () => {
    expect(acceptTextFile(makeDocx("正文"), TRAINING_FILE_LIMITS)).toMatchObject({
      kind: "docx",
      ext: "docx",
      mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    });
    expect(acceptTextFile(makePdf(), TEXT_FILE_LIMITS)).toMatchObject({ kind: "pdf", ext: "pdf", mime: "application/pdf" });
    const qa = Buffer.from("问：营业时间？\n答：9 点到 18 点。\n");
    expect(acceptTextFile(qa, TEXT_FILE_LIMITS)).toMatchObject({ kind: "txt", ext: "txt", size: qa.length });
    expect(codeOf(() => acceptTextFile(makeElf(), TRAINING_FILE_LIMITS))).toBe("file_empty_or_prohibited");
    expect(codeOf(() => acceptTextFile(makeExe(), TRAINING_FILE_LIMITS))).toBe("file_empty_or_prohibited");
    expect(codeOf(() => acceptTextFile(Buffer.alloc(0), TRAINING_FILE_LIMITS))).toBe("file_empty_or_prohibited");
    expect(codeOf(() => acceptTextFile(Buffer.from(" \n\t\n"), TRAINING_FILE_LIMITS))).toBe("file_empty_or_prohibited");
    expect(codeOf(() => acceptTextFile(makePng(400, 400), TRAINING_FILE_LIMITS))).toBe("text_file_type_not_allowed");
    expect(codeOf(() => acceptTextFile(makeMp4(), TRAINING_FILE_LIMITS))).toBe("text_file_type_not_allowed");
    expect(codeOf(() => acceptTextFile(Buffer.alloc(10 * MB + 1, 0x61), TEXT_FILE_LIMITS))).toBe("file_too_large");
    expect(codeOf(() => acceptTextFile(Buffer.alloc(10 * MB + 1, 0x61), TRAINING_FILE_LIMITS))).toBe("accepted");
    expect(codeOf(() => acceptTextFile(Buffer.alloc(50 * MB + 1, 0x61), TRAINING_FILE_LIMITS))).toBe("file_too_large");
  });

  it("videos by content within 100 MB (20 MB for a greeting), pictures within their bytes and sides", () => {
    expect(acceptVideo(makeMp4(), MEDIA_VIDEO_LIMITS)).toMatchObject({ kind: "mp4", mime: "video/mp4", ext: "mp4" });
    expect(acceptVideo(makeMov(), MEDIA_VIDEO_LIMITS)).toMatchObject({ kind: "mov", mime: "video/quicktime" });
    expect(acceptVideo(makeWebm(), MEDIA_VIDEO_LIMITS)).toMatchObject({ kind: "webm", mime: "video/webm" });
    expect(codeOf(() => acceptVideo(makeMp4(21 * MB), GREETING_VIDEO_LIMITS))).toBe("file_too_large");
    expect(codeOf(() => acceptVideo(makeMp4(21 * MB), MEDIA_VIDEO_LIMITS))).toBe("accepted");
    expect(codeOf(() => acceptVideo(makePng(400, 400), MEDIA_VIDEO_LIMITS))).toBe("video_type_not_allowed");
    expect(codeOf(() => acceptVideo(makeElf(), MEDIA_VIDEO_LIMITS))).toBe("file_empty_or_prohibited");
    const media = { image: MEDIA_IMAGE_LIMITS, video: MEDIA_VIDEO_LIMITS };
    expect(acceptMedia(makePng(800, 600), media)).toMatchObject({ kind: "png", width: 800, height: 600 });
    expect(acceptMedia(makeWebm(), media)).toMatchObject({ kind: "webm" });
    // A picture is held to the picture limit (20 MB) even though videos may be larger.
    expect(codeOf(() => acceptMedia(Buffer.concat([makePng(400, 400), Buffer.alloc(21 * MB)]), media))).toBe("file_too_large");
    expect(codeOf(() => acceptMedia(makePng(299, 800), media))).toBe("image_size_out_of_range");
    expect(codeOf(() => acceptMedia(makeDocx("x"), media))).toBe("media_type_not_allowed");
    expect(codeOf(() => acceptMedia(makeExe(), media))).toBe("file_empty_or_prohibited");
    expect(codeOf(() => acceptImage(makePng(5000, 300), MEDIA_IMAGE_LIMITS))).toBe("accepted");
    expect(codeOf(() => assertFileCount(3, 3))).toBe("accepted");
    expect(codeOf(() => assertFileCount(4, 3))).toBe("too_many_files");
  });

  it("the local store refuses keys that climb out of its folder", async () => {
    const store = new LocalFileStore(path.join(dataDir, "files"));
    for (const key of ["../escape.png", "avatars/../../escape.png", "/etc/passwd", "avatars\\x.png", "a//b.png", "avatars/..png"]) {
      await expect(store.put(key, Buffer.from("x"), "text/plain"), key).rejects.toThrow(/invalid file key/);
      expect(await store.get(key)).toBeNull();
    }
    expect(fs.existsSync(path.join(dataDir, "escape.png"))).toBe(false);
  });
});

describe("avatar uploads", () => {
  it("refuses what is not a JPG or PNG picture of the right size, and writes nothing", async () => {
    const { browser, id } = await signUp(`up_a${run}`, "10.7.0.1");
    const post = (bytes: Uint8Array, filename = "photo.png") =>
      browser.upload("/api/v1/account/avatar", { files: { file: { bytes, filename, type: "image/png" } } }, { lang: "en" });

    const exe = await post(Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00"), crypto.randomBytes(2048)]));
    expect(exe.body).toMatchObject({ status: 420018, description: "The file is empty or contains prohibited content" });
    expect((await post(Buffer.from("just some text, named like a picture\n"))).body.status).toBe(420201);
    // A PDF is a real file of an allowed kind elsewhere, but not a picture.
    expect((await post(Buffer.from("%PDF-1.4\n%%EOF\n"))).body.status).toBe(420201);
    // The right magic bytes over a body that is not a picture.
    expect((await post(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("garbage")]))).body.status).toBe(420018);

    const empty = await post(Buffer.alloc(0));
    expect(empty.body).toMatchObject({ status: 420018, description: "The file is empty or contains prohibited content" });
    expect((await browser.upload("/api/v1/account/avatar", { fields: { note: "no file" } })).body.status).toBe(420018);

    // A valid PNG padded past 5 MB.
    const big = Buffer.concat([makePng(400, 400), Buffer.alloc(6 * 1024 * 1024)]);
    const tooBig = await post(big);
    expect(tooBig.http).toBe(413);
    expect(tooBig.body).toMatchObject({ status: 420017, description: "File too large" });

    const small = await post(makePng(200, 200));
    expect(small.body).toMatchObject({ status: 420202, description: "The picture must be at least 300 px and at most 5000 px on each side" });
    expect((await post(makePng(5001, 300))).body.status).toBe(420202);
    expect((await post(makePng(299, 400), "x.png")).body.status).toBe(420202);
    expect((await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: makePng(200, 200) } } }, { lang: "zh_hans" })).body.description).toBe(
      "图片每边须至少 300 像素、至多 5000 像素",
    );

    expect(filesUnder(`avatars/${id}`)).toEqual([]);
    expect((await getDb().account.findUnique({ where: { id }, select: { avatarUrl: true } }))?.avatarUrl).toBeNull();
  });

  it("cuts a large streamed upload off at the limit instead of reading it into memory", async () => {
    const { browser, id } = await signUp(`up_b${run}`, "10.7.0.2");
    const boundary = "----zelin-test-boundary";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    // No Content-Length: the body streams (chunked), so only the streaming limit can stop it.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent >= 50) {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent++;
        controller.enqueue(chunk);
      },
    });
    const cookie = `zl_csrf=test-csrf-token; zl_session=${browser.cookies.get("zl_session")}`;
    const res = await fetch(`${server.base}/api/v1/account/avatar`, {
      method: "POST",
      headers: { cookie, "x-csrf-token": "test-csrf-token", "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { status: number }).status).toBe(420017);
    expect(filesUnder(`avatars/${id}`)).toEqual([]);
  });

  it("needs a session and the CSRF header", async () => {
    const { browser } = await signUp(`up_c${run}`, "10.7.0.3");
    expect((await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: makePng(400, 400) } } }, { csrf: null })).body.status).toBe(420114);
    expect((await new Browser(server.base).upload("/api/v1/account/avatar", { files: { file: { bytes: makePng(400, 400) } } })).body.status).toBe(110003);
  });

  it("keeps a valid picture, serves it back byte for byte, and deletes the one it replaces", async () => {
    const { browser, id } = await signUp(`up_d${run}`, "10.7.0.4");
    const first = makePng(400, 400, 40);
    const res = await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: first, filename: "me.PNG", type: "image/png" } } });
    expect(res.body.status).toBe(200);
    const url: string = res.body.data.avatarUrl;
    expect(url).toMatch(new RegExp(`^/files/avatars/${id}/[A-Za-z0-9_-]+\\.png$`));
    expect((await browser.call("/api/v1/account/me")).body.data.avatarUrl).toBe(url);

    const served = await new Browser(server.base).fetchRaw(url);
    expect(served.http).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toMatch(/max-age=31536000/);
    expect(Buffer.compare(served.bytes, first)).toBe(0);

    const second = makePng(600, 300, 200);
    const replaced = await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: second } } });
    expect(replaced.body.status).toBe(200);
    expect(replaced.body.data.avatarUrl).not.toBe(url);
    expect((await new Browser(server.base).fetchRaw(url)).http).toBe(404);
    expect(Buffer.compare((await new Browser(server.base).fetchRaw(replaced.body.data.avatarUrl)).bytes, second)).toBe(0);
    expect(filesUnder(`avatars/${id}`).filter((f) => !f.endsWith(".meta.json"))).toHaveLength(1);
  });

  it("answers a byte range with 206 (videos seek this way), and a range past the end with 416", async () => {
    const { browser } = await signUp(`up_r${run}`, "10.7.0.5");
    const png = makePng(300, 300, 33);
    const url: string = (await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: png } } })).body.data.avatarUrl;
    const get = (range?: string) => fetch(`${server.base}${url}`, { headers: range ? { range } : {} });
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    const part = await get("bytes=10-19");
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${png.length}`);
    expect(part.headers.get("content-length")).toBe("10");
    expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(10, 20))).toBe(true);
    const tail = await get("bytes=-4");
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(png.subarray(png.length - 4))).toBe(true);
    const open = await get(`bytes=${png.length - 3}-`);
    expect(open.headers.get("content-range")).toBe(`bytes ${png.length - 3}-${png.length - 1}/${png.length}`);
    const past = await get(`bytes=${png.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${png.length}`);
    // Several ranges, or another unit: the whole file.
    expect((await get("bytes=0-1,4-5")).status).toBe(200);
    expect((await get("items=0-1")).status).toBe(200);
  });

  it("the public route serves only public folders, and never outside the store", async () => {
    const anyone = new Browser(server.base);
    fs.mkdirSync(path.join(dataDir, "files", "certifications", "x"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "files", "certifications", "x", "private.png"), makePng(300, 300));
    expect((await anyone.fetchRaw("/files/certifications/x/private.png")).http).toBe(404);
    expect((await anyone.fetchRaw("/files/avatars/%2e%2e/%2e%2e/etc/passwd")).http).toBe(404);
    expect((await anyone.fetchRaw("/files/avatars/..%2F..%2Fsecret")).http).toBe(404);
    expect((await anyone.fetchRaw("/files/avatars/nobody/missing.png")).http).toBe(404);
  });
});

describe("the S3-compatible store", () => {
  const s3 = { bucket: "zelin-test", accessKeyId: "AKIAZELINTEST", secretAccessKey: "fake-secret-key-for-tests", region: "cn-test-1" };
  let fake: Awaited<ReturnType<typeof startFakeS3>>;
  beforeAll(async () => {
    fake = await startFakeS3(s3);
  });
  afterAll(async () => {
    for (const name of ["S3_BUCKET", "S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"]) delete process.env[name];
    resetEnvCache();
    dropSingleton("file-store");
    await fake?.close();
  });
  const storeWith = (secretAccessKey = s3.secretAccessKey) =>
    new S3FileStore({ bucket: s3.bucket, region: s3.region, endpoint: fake.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey, forcePathStyle: true });

  it("puts, gets and deletes objects path-style, each request signed with SigV4 for the bucket and key", async () => {
    const store = storeWith();
    const key = `training/${run}/notes.txt`;
    const bytes = Buffer.from("问：营业时间？答：九点。\n");
    await store.put(key, bytes, "text/plain; charset=utf-8");
    expect(fake.objects.get(key)).toEqual({ bytes, contentType: "text/plain; charset=utf-8" });

    const got = await store.get(key);
    expect(got).toMatchObject({ contentType: "text/plain; charset=utf-8", size: bytes.length });
    const chunks: Buffer[] = [];
    for await (const c of got!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    expect(await store.get(`training/${run}/missing.txt`)).toBeNull();
    // A range, as a video player asks for one; a range past the end is unsatisfiable.
    const part = await store.get(key, "bytes=3-8");
    expect(part).toMatchObject({ size: bytes.length, range: { start: 3, end: 8 } });
    const partChunks: Buffer[] = [];
    for await (const c of part!.stream) partChunks.push(c as Buffer);
    expect(Buffer.concat(partChunks).equals(bytes.subarray(3, 9))).toBe(true);
    expect(await store.get(key, `bytes=${bytes.length + 10}-`)).toMatchObject({ size: bytes.length, range: "unsatisfiable" });

    await store.delete(key);
    expect(fake.objects.has(key)).toBe(false);
    expect(await store.get(key)).toBeNull();
    await store.delete(key); // deleting a missing key is not an error

    const forKey = fake.requests.filter((r) => r.key === key);
    expect(forKey.map((r) => r.method)).toEqual(["PUT", "GET", "GET", "GET", "HEAD", "DELETE", "GET", "DELETE"]);
    for (const r of forKey) {
      expect(r.bucket).toBe(s3.bucket);
      expect(r.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${s3.accessKeyId}/\\d{8}/${s3.region}/s3/aws4_request, ?SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, ?Signature=[0-9a-f]{64}$`,
        ),
      );
      expect(r.signedHeaders).toEqual(expect.arrayContaining(["host", "x-amz-content-sha256", "x-amz-date"]));
    }
    // Bad keys never leave the process.
    await expect(store.put("../escape.txt", bytes, "text/plain")).rejects.toThrow(/invalid file key/);
  });

  it("a wrong secret is refused by the bucket, and nothing is written", async () => {
    const before = fake.objects.size;
    await expect(storeWith("not-the-secret").put(`training/${run}/x.txt`, Buffer.from("x"), "text/plain")).rejects.toThrow();
    expect(fake.objects.size).toBe(before);
  });

  it("S3_BUCKET switches every upload to the bucket: an avatar is stored there and served from /files", async () => {
    Object.assign(process.env, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: fake.endpoint,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: "1",
    });
    resetEnvCache();
    dropSingleton("file-store");
    const { browser, id } = await signUp(`up_s${run}`, "10.7.0.9");
    const png = makePng(320, 320, 90);
    const res = await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: png } } });
    expect(res.body.status).toBe(200);
    const key = (res.body.data.avatarUrl as string).slice("/files/".length);
    expect(key.startsWith(`avatars/${id}/`)).toBe(true);
    expect(fake.objects.get(key)?.bytes.equals(png)).toBe(true);
    expect(filesUnder(`avatars/${id}`)).toEqual([]);
    const served = await new Browser(server.base).fetchRaw(res.body.data.avatarUrl);
    expect(served.http).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.compare(served.bytes, png)).toBe(0);
  });

  it('a bucket that refuses the write answers "upload failed", and the account keeps its avatar', async () => {
    Object.assign(process.env, {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: fake.endpoint,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: "a-revoked-secret",
      S3_FORCE_PATH_STYLE: "1",
    });
    resetEnvCache();
    dropSingleton("file-store");
    const { browser, id } = await signUp(`up_f${run}`, "10.7.0.10");
    const before = fake.objects.size;
    const res = await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: makePng(320, 320) } } }, { lang: "en" });
    expect(res.http).toBe(500);
    expect(res.body).toMatchObject({ status: 420016, description: "Upload failed, please try again" });
    expect(fake.objects.size).toBe(before);
    expect((await getDb().account.findUnique({ where: { id }, select: { avatarUrl: true } }))?.avatarUrl).toBeNull();
  });

  it("the settings are checked at start: a bucket needs both keys", () => {
    expect(() => parseEnv({ S3_BUCKET: "zelin-files" })).toThrowError(/S3_ACCESS_KEY_ID: is required when S3_BUCKET is set[\s\S]*S3_SECRET_ACCESS_KEY/);
    expect(() => parseEnv({ S3_BUCKET: "Bad_Bucket", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" })).toThrowError(/S3_BUCKET/);
    expect(() => parseEnv({ S3_ENDPOINT: "minio:9000" })).toThrowError(/S3_ENDPOINT/);
    expect(parseEnv({ S3_BUCKET: "zelin-files", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b", S3_FORCE_PATH_STYLE: "1" })).toMatchObject({
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: true,
    });
  });
});
