// Uploads (issue 3, DESIGN 9): checked by size, by content type and by pixel size, never by the
// name; refused uploads write nothing; accepted avatars are served back as they were sent.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { LocalFileStore } from "../../server/uploads/file-store";
import { isAppError } from "../../server/errors/app-error";
import { sniffType, readImageSize } from "../../server/uploads/sniff";
import { acceptImage, acceptMedia, acceptTextFile, acceptVideo, assertFileCount } from "../../server/uploads/uploads.service";
import { GREETING_VIDEO_LIMITS, MB, MEDIA_IMAGE_LIMITS, MEDIA_VIDEO_LIMITS, TEXT_FILE_LIMITS, TRAINING_FILE_LIMITS } from "../../server/uploads/upload-limits";
import { Browser } from "../helpers/api-client";
import { useApiWithTempFiles } from "../helpers/temp-files-api";
import { makePdf, makePng } from "../helpers/png";
import { makeDocx, makeElf, makeExe, makeMov, makeMp4, makeWebm, makeZip } from "../helpers/sample-files";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-uploads-");
const dataDir = server.dataDir;

const filesUnder = (dir: string): string[] => {
  const full = path.join(dataDir, "files", dir);
  return fs.existsSync(full) ? fs.readdirSync(full, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
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
    expect(acceptTextFile(makeDocx("正文"), TRAINING_FILE_LIMITS)).toMatchObject({ kind: "docx", ext: "docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" });
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
    const post = (bytes: Uint8Array, filename = "photo.png") => browser.upload("/api/v1/account/avatar", { files: { file: { bytes, filename, type: "image/png" } } }, { lang: "en" });

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
    expect((await browser.upload("/api/v1/account/avatar", { files: { file: { bytes: makePng(200, 200) } } }, { lang: "zh_hans" })).body.description).toBe("图片每边须至少 300 像素、至多 5000 像素");

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
