// The outbound guard against loopback servers only. Every refusal happens before a
// request reaches the private server, which counts what it receives.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockedAddressError, guardedFetch } from "../../server/net/guarded-fetch";

let target: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  target = http.createServer((req, res) => {
    hits++;
    if (req.url === "/redirect-private") return res.writeHead(302, { location: `http://127.0.0.2:${port}/secret` }).end();
    if (req.url === "/redirect-file") return res.writeHead(302, { location: "file:///etc/passwd" }).end();
    if (req.url === "/redirect-ok") return res.writeHead(302, { location: "/ok" }).end();
    if (req.url === "/big") return res.end(Buffer.alloc(2048, 1));
    res.end("hello");
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", () => r()));
  port = (target.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => target.close(r)));

async function refused(url: string, opts = {}) {
  const before = hits;
  const err = await guardedFetch(url, {}, opts).then(
    () => null,
    (e) => e,
  );
  expect(err, url).toBeTruthy();
  expect(hits - before, `${url} reached the server`).toBe(0);
  return err;
}

describe("guarded fetch", () => {
  it("refuses loopback, private and metadata addresses, however they are written", async () => {
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
      "http://192.168.0.1/",
    ]) {
      expect(await refused(url)).toBeInstanceOf(BlockedAddressError);
    }
  });

  it("refuses a name that resolves to a private address, checked when the socket connects", async () => {
    // A hostile DNS answer: a public-looking name pointing at loopback.
    const lookup = ((_host: string, _opts: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: "127.0.0.1", family: 4 }])) as never;
    expect(await refused(`http://innocent.example:${port}/`, { lookup })).toBeInstanceOf(BlockedAddressError);
    // One bad address among several is enough to refuse.
    const mixed = ((_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ])) as never;
    expect(await refused(`http://mixed.example:${port}/`, { lookup: mixed })).toBeInstanceOf(BlockedAddressError);
  });

  it("refuses other schemes", async () => {
    await refused("file:///etc/passwd");
    await refused("ftp://example.com/");
  });

  it("reaches an allow-listed host, and checks every redirect hop", async () => {
    const allow = [`127.0.0.1:${port}`];
    const ok = await guardedFetch(`http://127.0.0.1:${port}/redirect-ok`, {}, { allow });
    expect(ok.body.toString()).toBe("hello");
    expect(
      await guardedFetch(`http://127.0.0.1:${port}/redirect-private`, {}, { allow }).then(
        () => null,
        (e) => e,
      ),
    ).toBeInstanceOf(BlockedAddressError);
    expect(
      await guardedFetch(`http://127.0.0.1:${port}/redirect-file`, {}, { allow }).then(
        () => null,
        (e) => e,
      ),
    ).toBeTruthy();
  });

  it("caps the body", async () => {
    const err = await guardedFetch(`http://127.0.0.1:${port}/big`, {}, { allow: [`127.0.0.1:${port}`], maxBytes: 1000 }).then(
      () => null,
      (e) => e,
    );
    expect(err?.code).toBe("file_too_large");
  });
});
