// The REST surface of the shell on the real database: the envelope, the licence states
// and the write refusal, system config, and the screen-lock list with its refusals.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../server/env";
import { createApiRouter } from "../../server/http/api-router";
import { licenceWriteGuard } from "../../server/http/licence-guard";
import { setScreenLock } from "../../server/platform/platform.service";
import { writeLicenceFixtures } from "../helpers/licence-fixtures";

const ADMIN = "integration-admin-token-000";
const licences = writeLicenceFixtures();
let server: Server;
let base: string;

function configure(env: Record<string, string | undefined>) {
  for (const k of ["LICENCE_FILE", "LICENCE_PUBLIC_KEY", "ADMIN_API_TOKEN"]) delete process.env[k];
  Object.assign(process.env, Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)));
  resetEnvCache();
}

async function call(path: string, init: RequestInit & { lang?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.lang) headers.set("cookie", `lang=${init.lang}`);
  const res = await fetch(`${base}${path}`, { ...init, headers });
  return { http: res.status, body: await res.json() };
}

beforeAll(async () => {
  const app = express();
  app.use(licenceWriteGuard);
  app.use("/api", createApiRouter());
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));
afterEach(async () => {
  configure({});
  await setScreenLock([]);
});

describe("GET /api/v1/account/version_check", () => {
  it("200 with no licence: an open deployment", async () => {
    configure({});
    expect((await call("/api/v1/account/version_check")).body).toMatchObject({ status: 200, message: { start_time: null, end_time: null } });
  });

  it("200 with a licence that has long to run", async () => {
    configure({ LICENCE_FILE: licences.files.valid, LICENCE_PUBLIC_KEY: licences.publicKeyPem });
    expect((await call("/api/v1/account/version_check")).body).toMatchObject({ status: 200, data: { state: "valid" } });
  });

  it("10001 with the validity range and phone when it ends within 30 days", async () => {
    configure({ LICENCE_FILE: licences.files.expiring, LICENCE_PUBLIC_KEY: licences.publicKeyPem });
    const { body } = await call("/api/v1/account/version_check", { lang: "en" });
    expect(body).toMatchObject({
      status: 10001,
      description: "Your licence expires soon, please renew it",
      message: { start_time: licences.shiftYmd(licences.today, -300), end_time: licences.shiftYmd(licences.today, 10) },
      data: { state: "expiring", days_left: 10, contact_phone: "021-5555-0101" },
    });
  });

  it("10002 when expired, and for a forged or missing licence", async () => {
    configure({ LICENCE_FILE: licences.files.expired, LICENCE_PUBLIC_KEY: licences.publicKeyPem });
    expect((await call("/api/v1/account/version_check")).body).toMatchObject({ status: 10002, data: { state: "expired" } });
    configure({ LICENCE_FILE: licences.files.forged, LICENCE_PUBLIC_KEY: licences.publicKeyPem });
    expect((await call("/api/v1/account/version_check")).body).toMatchObject({ status: 10002, data: { state: "invalid" } });
    configure({ LICENCE_FILE: `${licences.dir}/missing.json`, LICENCE_PUBLIC_KEY: licences.publicKeyPem });
    expect((await call("/api/v1/account/version_check")).body).toMatchObject({ status: 10002, data: { state: "invalid" } });
  });
});

describe("an expired licence makes the deployment read-only", () => {
  it("refuses writes with 10002 and changes nothing, but still serves reads", async () => {
    configure({ LICENCE_FILE: licences.files.expired, LICENCE_PUBLIC_KEY: licences.publicKeyPem, ADMIN_API_TOKEN: ADMIN });
    const put = await call("/api/v1/admin/screen_lock", {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ items: [{ img_name: "x", img_url: "https://img.example/x.png" }] }),
      lang: "zh_hans",
    });
    expect(put).toEqual({
      http: 403,
      body: { status: 10002, description: "授权已到期，暂时无法保存修改", data: expect.objectContaining({ end_time: licences.shiftYmd(licences.today, -1) }) },
    });
    expect((await call("/api/v1/system/screen_lock")).body).toMatchObject({ status: 200, data: { screen_control: 0, items: [] } });
  });

  it("lets writes through with an expiring licence", async () => {
    configure({ LICENCE_FILE: licences.files.expiring, LICENCE_PUBLIC_KEY: licences.publicKeyPem, ADMIN_API_TOKEN: ADMIN });
    const put = await call("/api/v1/admin/screen_lock", {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ items: [] }),
    });
    expect(put.body.status).toBe(200);
  });
});

describe("GET /api/v1/system/config", () => {
  it("answers the system config's fields in the envelope", async () => {
    const { body } = await call("/api/v1/system/config");
    expect(body.status).toBe(200);
    expect(Object.keys(body.data).sort()).toEqual(["app_audio_enable", "config", "domain", "intelligent_agent_market", "pay_enable", "private"]);
    expect(body.data.config.market).toBe("zelinai");
  });
});

describe("screen lock", () => {
  const put = (items: unknown, token = ADMIN, lang = "en") =>
    call("/api/v1/admin/screen_lock", {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ items }),
      lang,
    });

  it("an administrator locks every page and an empty list unlocks", async () => {
    configure({ ADMIN_API_TOKEN: ADMIN });
    const locked = await put([{ img_name: "Exam in progress", img_url: "https://img.example/exam.png", screen_control: 1 }]);
    expect(locked.body).toEqual({
      status: 200,
      description: "success",
      data: { screen_control: 1, items: [{ img_name: "Exam in progress", img_url: "https://img.example/exam.png", screen_control: 1 }] },
    });
    expect((await call("/api/v1/system/screen_lock")).body.data.screen_control).toBe(1);
    expect((await put([])).body.data).toEqual({ screen_control: 0, items: [] });
    expect((await call("/api/v1/system/screen_lock")).body.data).toEqual({ screen_control: 0, items: [] });
  });

  it("items with screen_control 0 do not lock", async () => {
    configure({ ADMIN_API_TOKEN: ADMIN });
    expect((await put([{ img_name: "Notice", img_url: "/lock.png", screen_control: 0 }])).body.data.screen_control).toBe(0);
  });

  it("refuses anyone without the administrator's token, and changes nothing", async () => {
    configure({ ADMIN_API_TOKEN: ADMIN });
    const res = await put([{ img_name: "x", img_url: "https://img.example/x.png" }], "wrong-token-wrong-token", "zh_hant");
    expect(res).toEqual({ http: 403, body: { status: 403001, description: "暫無存取權限", data: null } });
    expect((await call("/api/v1/system/screen_lock")).body.data.items).toEqual([]);
  });

  it("refuses bad items with a localized reason, and changes nothing", async () => {
    configure({ ADMIN_API_TOKEN: ADMIN });
    const res = await put(
      [
        { img_name: "ok", img_url: "/a.png" },
        { img_name: "x", img_url: "javascript:alert(1)" },
      ],
      ADMIN,
      "pt",
    );
    expect(res.http).toBe(400);
    expect(res.body).toMatchObject({
      status: 400001,
      description: "Uma ligação deve começar por http:// ou https://",
      data: { fields: [{ path: "items.1.img_url" }] },
    });
    expect((await call("/api/v1/system/screen_lock")).body.data.items).toEqual([]);
  });
});

describe("unknown API paths", () => {
  it("answer 404 in the envelope", async () => {
    expect(await call("/api/v1/nothing/here", { lang: "en" })).toEqual({
      http: 404,
      body: { status: 404001, description: "Not found, or it has been removed", data: null },
    });
  });
});
