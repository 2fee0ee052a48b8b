// Uploads (issue 3, DESIGN 9): checked by size, by content type and by pixel size, never by the
// name; refused uploads write nothing; accepted avatars are served back as they were sent.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { LocalFileStore } from "../../server/uploads/file-store";
import { sniffType, readImageSize } from "../../server/uploads/sniff";
import { Browser } from "../helpers/api-client";
import { useApiWithTempFiles } from "../helpers/temp-files-api";
import { makePng } from "../helpers/png";

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
    expect(exe.body).toMatchObject({ status: 420201, description: "Only JPG or PNG pictures are allowed" });
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
