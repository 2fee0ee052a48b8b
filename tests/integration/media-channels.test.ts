// Media providers' channels and media models in the model registry, over the real API router and
// database, against the providers' loopback fakes (Kling, DashScope, SD WebUI, ComfyUI): each type
// created with its own key rule, the test button asking each provider a cheap authenticated
// question (and a refused key taking the channel out of rotation), chats never sent to a media
// channel, and a media model's unit price saved and shown.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { openSecret } from "../../server/lib/secret-box";
import { completeChat } from "../../server/models/gateway.service";
import * as repo from "../../server/models/models.repository";
import { listCatalogueModels } from "../../server/models/models.service";
import { Browser, startApiServer } from "../helpers/api-client";
import { startFakeComfyui } from "../fakes/fake-comfyui";
import { startFakeDashscope } from "../fakes/fake-dashscope";
import { startFakeKling } from "../fakes/fake-kling";
import { startFakeOpenai } from "../fakes/fake-openai";
import { startFakeSdWebui } from "../fakes/fake-sd-webui";

const ADMIN = "media-channels-admin-token-00000";
const SD_CREDENTIALS = "painter:brushes-0001";
const COMFY_TOKEN = "comfy-proxy-token-0001";
const uid = () => crypto.randomBytes(4).toString("hex");

let api: Awaited<ReturnType<typeof startApiServer>>;
let kling: Awaited<ReturnType<typeof startFakeKling>>;
let dashscope: Awaited<ReturnType<typeof startFakeDashscope>>;
let sd: Awaited<ReturnType<typeof startFakeSdWebui>>;
let comfy: Awaited<ReturnType<typeof startFakeComfyui>>;
let openai: Awaited<ReturnType<typeof startFakeOpenai>>;

beforeAll(async () => {
  Object.assign(process.env, { ADMIN_API_TOKEN: ADMIN, MODEL_CONNECT_TIMEOUT_MS: "2000" });
  resetEnvCache();
  [kling, dashscope, sd, comfy, openai] = await Promise.all([
    startFakeKling(),
    startFakeDashscope(),
    startFakeSdWebui({ credentials: SD_CREDENTIALS }),
    startFakeComfyui({ token: COMFY_TOKEN }),
    startFakeOpenai(),
  ]);
  api = await startApiServer();
});
afterAll(async () => {
  for (const k of ["ADMIN_API_TOKEN", "MODEL_CONNECT_TIMEOUT_MS", "SSRF_ALLOWLIST"]) delete process.env[k];
  resetEnvCache();
  await Promise.all([api.close(), kling.close(), dashscope.close(), sd.close(), comfy.close(), openai.close()]);
});

/** An administrator's call (bearer token: no session, no CSRF), answered in English. */
async function admin(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${api.base}/api${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json", cookie: "lang=en" },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { http: res.status, text, body: JSON.parse(text) };
}

async function addModel(kind: string, extra: Record<string, unknown> = {}) {
  const key = `${kind}-${uid()}`;
  const res = await admin("/v1/admin/models", { body: { key, display_name: "媒体", kind, ...extra } });
  expect(res.body.status, res.text).toBe(200);
  return res.body.data as { id: string; key: string; unit_price_micro: number };
}

async function addChannel(body: Record<string, unknown>) {
  const res = await admin("/v1/admin/channels", { body: { name: `ch-${uid()}`, weight: 1, ...body } });
  expect(res.body.status, res.text).toBe(200);
  return res.body.data as { id: string; type: string; key_hint: string; state: string };
}

const testChannel = (id: string) => admin(`/v1/admin/channels/${id}/test`, { method: "POST" });

describe("creating media channels", () => {
  it("creates each media type with its own key rule, and keeps the key out of every answer", async () => {
    const model = await addModel("image");
    const k = await addChannel({ type: "kling", base_url: kling.url, key: kling.secret, models: [model.key] });
    expect(k).toMatchObject({ type: "kling", key_hint: kling.secret.slice(-4), state: "enabled" });
    expect(openSecret((await repo.findChannelWithKeyById(k.id))!.keyEncrypted)).toBe(kling.secret);
    const d = await addChannel({ type: "dashscope", base_url: `${dashscope.url}/api/v1/`, key: dashscope.apiKey, models: [model.key] });
    expect(d).toMatchObject({ type: "dashscope", base_url: `${dashscope.url}/api/v1` });
    // Self-hosted servers may run without authentication: no key, or an empty one, is no key at all.
    const s = await addChannel({ type: "sdwebui", base_url: sd.url, models: [model.key] });
    const c = await addChannel({ type: "comfyui", base_url: comfy.url, key: "", models: [model.key] });
    for (const ch of [s, c]) {
      expect(ch.key_hint).toBe("");
      expect(openSecret((await repo.findChannelWithKeyById(ch.id))!.keyEncrypted)).toBe("");
    }
    const list = await admin("/v1/admin/channels");
    expect(list.text).not.toContain(kling.secretKey);
    expect(list.text).not.toContain(dashscope.apiKey);
  });

  it("refuses a key its type cannot use, and writes nothing", async () => {
    const model = await addModel("video");
    const name = `refused-${uid()}`;
    const cases: Array<[string, unknown, RegExp]> = [
      ["kling", "only-one-half", /accessKey:secretKey/],
      ["kling", "ak:", /accessKey:secretKey/],
      ["kling", undefined, /required/],
      ["dashscope", "", /required/],
      ["openai", undefined, /required/],
      ["deepseek", "   ", /required/],
    ];
    for (const [type, key, message] of cases) {
      const res = await admin("/v1/admin/channels", { body: { name, type, base_url: kling.url, key, models: [model.key] } });
      expect(res.body.status, `${type} ${JSON.stringify(key)}`).toBe(400001);
      expect(res.body.data.fields[0]).toMatchObject({ path: "key" });
      expect(res.body.data.fields[0].message).toMatch(message);
    }
    expect((await repo.listChannels()).filter((c) => c.name === name)).toEqual([]);
  });

  it("refuses to turn a keyless channel into a type that needs a key unless one comes with it", async () => {
    const model = await addModel("image");
    const ch = await addChannel({ type: "sdwebui", base_url: sd.url, models: [model.key] });
    const refused = await admin(`/v1/admin/channels/${ch.id}`, { method: "PATCH", body: { type: "kling", base_url: kling.url } });
    expect(refused.body.status).toBe(400001);
    expect(refused.body.data.fields[0]).toMatchObject({ path: "key" });
    expect(await repo.findChannelById(ch.id)).toMatchObject({ type: "sdwebui", baseUrl: sd.url });
    const badKey = await admin(`/v1/admin/channels/${ch.id}`, { method: "PATCH", body: { type: "kling", key: "no-colon" } });
    expect(badKey.body.data.fields[0].message).toMatch(/accessKey:secretKey/);
    const changed = await admin(`/v1/admin/channels/${ch.id}`, { method: "PATCH", body: { type: "kling", base_url: kling.url, key: kling.secret } });
    expect(changed.body.data).toMatchObject({ type: "kling", key_hint: kling.secret.slice(-4) });
    // A new key on a Kling channel is checked against the stored type.
    const halfKey = await admin(`/v1/admin/channels/${ch.id}`, { method: "PATCH", body: { key: "half" } });
    expect(halfKey.body.status).toBe(400001);
  });
});

describe("the channel test button on media channels", () => {
  it("asks each provider a cheap authenticated question and creates nothing there", async () => {
    const model = await addModel("image");
    const channels = [
      await addChannel({ type: "kling", base_url: kling.url, key: kling.secret, models: [model.key] }),
      await addChannel({ type: "dashscope", base_url: dashscope.url, key: dashscope.apiKey, models: [model.key] }),
      await addChannel({ type: "sdwebui", base_url: sd.url, key: SD_CREDENTIALS, models: [model.key] }),
      await addChannel({ type: "comfyui", base_url: comfy.url, key: COMFY_TOKEN, models: [model.key] }),
    ];
    const seen = [kling.requests.length, dashscope.requests.length, sd.requests.length, comfy.requests.length];
    for (const ch of channels) {
      const res = await testChannel(ch.id);
      expect(res.body, `${ch.type}: ${res.text}`).toMatchObject({ status: 200, data: { ok: true, error: null } });
    }
    const [k] = kling.requests.slice(seen[0]);
    expect(k).toMatchObject({ method: "GET", path: "/v1/images/generations", query: "?pageNum=1&pageSize=1" });
    expect(k.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(dashscope.requests.slice(seen[1])).toMatchObject([{ method: "GET", path: "/api/v1/tasks/zelin-channel-test" }]);
    expect(sd.requests.slice(seen[2])).toMatchObject([{ method: "GET", path: "/sdapi/v1/samplers" }]);
    expect(comfy.requests.slice(seen[3])).toMatchObject([{ method: "GET", path: "/queue" }]);
    expect(kling.tasks.size + dashscope.tasks.size + sd.tasks.size + comfy.tasks.size).toBe(0);
    expect(openai.received.some((r) => r.body?.model === model.key)).toBe(false);
  });

  it("a key the provider refuses fails the test and disables the channel with key_banned", async () => {
    const model = await addModel("image");
    const channels = [
      await addChannel({ type: "kling", base_url: kling.url, key: `${kling.accessKey}:not-the-secret`, models: [model.key] }),
      await addChannel({ type: "dashscope", base_url: dashscope.url, key: "sk-not-the-key", models: [model.key] }),
      await addChannel({ type: "sdwebui", base_url: sd.url, key: "painter:wrong", models: [model.key] }),
      await addChannel({ type: "comfyui", base_url: comfy.url, models: [model.key] }),
    ];
    const expected: Record<string, RegExp> = { kling: /^Kling 1002/, dashscope: /InvalidApiKey/, sdwebui: /^SD WebUI HTTP 401/, comfyui: /^ComfyUI HTTP 401/ };
    for (const ch of channels) {
      const res = await testChannel(ch.id);
      expect(res.body, ch.type).toMatchObject({ status: 420020, data: { ok: false } });
      expect(res.body.data.error).toMatch(expected[ch.type]);
      expect(await repo.findChannelById(ch.id), ch.type).toMatchObject({ state: "disabled_auto", disabledReason: "key_banned" });
    }
  });

  it("a server that cannot be reached fails the test but stays in rotation", async () => {
    const model = await addModel("image");
    const closed = await startFakeComfyui();
    const url = closed.url;
    await closed.close();
    const ch = await addChannel({ type: "comfyui", base_url: url, models: [model.key] });
    const res = await testChannel(ch.id);
    expect(res.body).toMatchObject({ status: 420020, data: { ok: false } });
    expect(res.body.data.error).toMatch(/^ComfyUI could not be reached/);
    expect((await repo.findChannelById(ch.id))?.state).toBe("enabled");
  });

  it("tests an account's own media channel through the SSRF guard", async () => {
    const model = await addModel("image");
    const account = await getDb().account.create({
      data: {
        account: `hgown${uid()}`,
        nickname: "Own",
        roles: ["individual_developer"],
        edition: "flagship",
        editionExpiresAt: new Date(Date.now() + 86_400_000),
      },
      select: { id: true },
    });
    const browser = new Browser(api.base, "10.77.0.1");
    browser.cookies.set("zl_session", (await startSession(account.id)).token);
    process.env.SSRF_ALLOWLIST = new URL(sd.url).host;
    try {
      const created = await browser.call("/api/v1/account/channels", {
        body: { name: "my webui", type: "sdwebui", base_url: sd.url, key: SD_CREDENTIALS, models: [model.key] },
      });
      expect(created.body.status, created.body.description).toBe(200);
      const id = created.body.data.id;
      expect((await browser.call(`/api/v1/account/channels/${id}/test`, { method: "POST" })).body).toMatchObject({ status: 200, data: { ok: true } });
      // Without the operator's allowance the loopback address is refused at connect time, which is not the key's fault.
      delete process.env.SSRF_ALLOWLIST;
      const blocked = await browser.call(`/api/v1/account/channels/${id}/test`, { method: "POST" });
      expect(blocked.body).toMatchObject({ status: 420020, data: { ok: false } });
      expect(blocked.body.data.error).toMatch(/not a public address/);
      expect((await repo.findChannelById(id))?.state).toBe("enabled");
    } finally {
      delete process.env.SSRF_ALLOWLIST;
    }
  });
});

describe("chat routing around media channels", () => {
  const MESSAGES = [{ role: "user" as const, content: "hello" }];

  it("never sends a chat to a media channel that lists a text model, whatever its priority", async () => {
    const model = await addModel("text");
    const before = kling.requests.length;
    const k = await addChannel({ type: "kling", base_url: kling.url, key: kling.secret, models: [model.key], priority: 100, weight: 100 });
    const key = `sk-chat-${uid()}`;
    const o = await addChannel({ type: "openai", base_url: openai.base, key, models: [model.key] });
    for (let i = 0; i < 5; i++) {
      const result = await completeChat({ modelKey: model.key, messages: MESSAGES });
      expect(result.channelId).toBe(o.id);
      const [log] = await repo.findModelRequestLogs(result.requestId);
      expect((log.attempts as Array<{ channelId: string }>).map((a) => a.channelId)).toEqual([o.id]);
    }
    expect(openai.requestsFor(key)).toBe(5);
    expect(kling.requests.length).toBe(before);
    expect(await repo.findChannelById(k.id)).toMatchObject({ state: "enabled" });
  });

  it("answers model_unavailable when only media channels list the model, and asks none of them", async () => {
    const model = await addModel("text");
    const seen = [kling.requests.length, dashscope.requests.length];
    await addChannel({ type: "kling", base_url: kling.url, key: kling.secret, models: [model.key] });
    await addChannel({ type: "dashscope", base_url: dashscope.url, key: dashscope.apiKey, models: [model.key] });
    await expect(completeChat({ modelKey: model.key, messages: MESSAGES })).rejects.toMatchObject({ code: "model_unavailable" });
    expect([kling.requests.length, dashscope.requests.length]).toEqual(seen);
  });
});

describe("a media model's unit price", () => {
  it("is saved, changed, kept by a partial update and shown in the admin list and the catalogue", async () => {
    const image = await addModel("image", { unit_price_micro: 50_000 });
    expect(image.unit_price_micro).toBe(50_000);
    const changed = await admin(`/v1/admin/models/${image.id}`, { method: "PATCH", body: { unit_price_micro: 80_000 } });
    expect(changed.body.data.unit_price_micro).toBe(80_000);
    const renamed = await admin(`/v1/admin/models/${image.id}`, { method: "PATCH", body: { display_name: "新名" } });
    expect(renamed.body.data.unit_price_micro).toBe(80_000);
    const listed = (await admin("/v1/admin/models")).body.data.find((m: { id: string }) => m.id === image.id);
    expect(listed).toMatchObject({ kind: "image", unit_price_micro: 80_000 });
    expect((await listCatalogueModels()).find((m) => m.id === image.id)).toMatchObject({ unit_price_micro: 80_000 });
    // The routing read (direct SQL) carries it too: media jobs price from it.
    expect(await repo.findModelByKey(image.key)).toMatchObject({ unitPriceMicro: 80_000 });
    expect((await addModel("text")).unit_price_micro).toBe(0);
  });

  it("refuses a negative, fractional or absurd unit price and changes nothing", async () => {
    const voice = await addModel("voice", { unit_price_micro: 24_000 });
    for (const bad of [-1, 1.5, 2_000_000_000, "12"]) {
      const res = await admin(`/v1/admin/models/${voice.id}`, { method: "PATCH", body: { unit_price_micro: bad } });
      expect(res.body.status, String(bad)).toBe(400001);
      expect(res.body.data.fields[0]).toMatchObject({ path: "unit_price_micro" });
    }
    const refused = await admin("/v1/admin/models", { body: { key: `bad-${uid()}`, display_name: "坏价", kind: "video", unit_price_micro: -5 } });
    expect(refused.body.status).toBe(400001);
    expect(await repo.findModelByKey(voice.key)).toMatchObject({ unitPriceMicro: 24_000 });
  });
});
