// The private key service over REST against the real database and a fake upstream on
// loopback: edition refusals, CRUD for the owner only, keys never echoed, the gateway preferring
// an account's own key for that account alone, the SSRF check on base URLs, and the admin routes
// refused to signed-in non-administrators.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { probeMediaChannel } from "../../server/media/channel-probe";
import { createChannel, testChannel } from "../../server/models/channels.service";
import { completeChat } from "../../server/models/gateway.service";
import { createModel } from "../../server/models/models.service";
import * as repo from "../../server/models/models.repository";
import { assertPublicBaseUrl } from "../../server/models/public-base-url";
import { Browser, startApiServer } from "../helpers/api-client";
import { startFakeOpenai } from "../fakes/fake-openai";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";

const run = crypto.randomBytes(3).toString("hex");
const uid = () => crypto.randomBytes(4).toString("hex");
const MESSAGES = [{ role: "user" as const, content: "hello" }];
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
let api: Awaited<ReturnType<typeof startApiServer>>;
let n = 0;

beforeAll(async () => {
  fake = await startFakeOpenai();
  // Loopback is refused to accounts; the test upstream is let through the way operators allow one.
  process.env.SSRF_ALLOWLIST = new URL(fake.base).host;
  Object.assign(process.env, { MODEL_CONNECT_TIMEOUT_MS: "2000" });
  resetEnvCache();
  api = await startApiServer();
});
afterAll(async () => {
  delete process.env.SSRF_ALLOWLIST;
  delete process.env.MODEL_CONNECT_TIMEOUT_MS;
  resetEnvCache();
  await api.close();
  await fake.close();
});

type TEdition = "basic" | "professional" | "flagship" | "enterprise";

async function signIn(edition: TEdition, roles: string[] = ["individual_developer"]) {
  const account = await getDb().account.create({
    data: {
      account: `own${run}${++n}`,
      nickname: "Own",
      roles: roles as never,
      edition,
      editionExpiresAt: edition === "basic" ? null : new Date(Date.now() + 30 * 86_400_000),
    },
    select: { id: true },
  });
  const browser = new Browser(api.base, `10.9.0.${n}`);
  browser.cookies.set("zl_session", (await startSession(account.id)).token);
  return { browser, id: account.id };
}

async function catalogueModel() {
  const key = `own-${uid()}`;
  await createModel(ZCreateModelInput.parse({ key, display_name: "自带", upstream_model: `${key}-up` }));
  return key;
}

const channelBody = (modelKey: string, key = `sk-own-${uid()}-secretpart`) => ({
  name: "my key",
  type: "openai",
  base_url: fake.base,
  key,
  models: [modelKey],
  weight: 5,
  priority: 1,
});

describe("edition", () => {
  it("refuses basic and professional with the upgrade message, on every verb", async () => {
    const ids: string[] = [];
    for (const edition of ["basic", "professional"] as const) {
      const { browser, id } = await signIn(edition);
      ids.push(id);
      const modelKey = await catalogueModel();
      for (const [method, path, body] of [
        ["GET", "/api/v1/account/channels", undefined],
        ["POST", "/api/v1/account/channels", channelBody(modelKey)],
        ["PATCH", "/api/v1/account/channels/x", { weight: 2 }],
        ["DELETE", "/api/v1/account/channels/x", undefined],
        ["POST", "/api/v1/account/channels/x/test", {}],
      ] as const) {
        const res = await browser.call(path, { method, body, lang: "en" });
        expect(res.body, `${edition} ${method} ${path}`).toMatchObject({
          status: 420113,
          description: "Your edition does not include this: upgrade to Flagship",
          data: { feature: "privateKeyService" },
        });
      }
    }
    expect(await getDb().channel.count({ where: { ownerAccountId: { in: ids } } })).toBe(0);
  });

  it("answers 110003 when not signed in", async () => {
    const res = await new Browser(api.base, "10.9.9.9").call("/api/v1/account/channels");
    expect(res.body.status).toBe(110003);
  });
});

describe("own channels", () => {
  it("lets a flagship account create, list, edit, test, disable and delete, never echoing the key", async () => {
    const { browser, id } = await signIn("flagship");
    const modelKey = await catalogueModel();
    const body = channelBody(modelKey);
    const created = await browser.call("/api/v1/account/channels", { body });
    expect(created.body).toMatchObject({
      status: 200,
      data: { name: "my key", key_hint: body.key.slice(-4), models: [modelKey], weight: 5, priority: 1, state: "enabled", owner_account_id: id },
    });
    const channelId = created.body.data.id as string;
    const stored = await repo.findChannelWithKeyById(channelId);
    expect(stored?.keyEncrypted).not.toContain(body.key);

    const list = await browser.call("/api/v1/account/channels");
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([channelId]);
    const patched = await browser.call(`/api/v1/account/channels/${channelId}`, { method: "PATCH", body: { weight: 9, key: "sk-replacement-key-7777" } });
    expect(patched.body.data).toMatchObject({ weight: 9, key_hint: "7777" });
    expect((await browser.call(`/api/v1/account/channels/${channelId}`, { method: "PATCH", body: { weight: 101 } })).body.status).toBe(400001);

    const tested = await browser.call(`/api/v1/account/channels/${channelId}/test`, { body: {} });
    expect(tested.body).toMatchObject({ status: 200, data: { ok: true } });
    expect(fake.requestsFor("sk-replacement-key-7777")).toBe(1);

    const inUse = await browser.call(`/api/v1/account/channels/${channelId}`, { method: "DELETE", lang: "en" });
    expect(inUse.body).toMatchObject({ status: 420021, description: "The channel is in use and cannot be deleted" });
    expect((await browser.call(`/api/v1/account/channels/${channelId}/disable`, { body: {} })).body.data.state).toBe("disabled_manual");
    expect((await browser.call(`/api/v1/account/channels/${channelId}`, { method: "DELETE" })).body).toMatchObject({ status: 200, data: { id: channelId } });
    for (const res of [created, list, patched, tested]) {
      expect(JSON.stringify(res.body)).not.toContain(body.key);
      expect(JSON.stringify(res.body)).not.toContain("sk-replacement-key-7777");
    }
  });

  it("is not_found for every other account, on every verb, and absent from their list and the admin list", async () => {
    const owner = await signIn("flagship");
    const other = await signIn("enterprise");
    const modelKey = await catalogueModel();
    const channelId = (await owner.browser.call("/api/v1/account/channels", { body: channelBody(modelKey) })).body.data.id as string;
    for (const [method, suffix, body] of [
      ["PATCH", "", { weight: 2 }],
      ["DELETE", "", undefined],
      ["POST", "/test", {}],
      ["POST", "/enable", {}],
      ["POST", "/disable", {}],
    ] as const) {
      const res = await other.browser.call(`/api/v1/account/channels/${channelId}${suffix}`, { method, body });
      expect(res.body, `${method} ${suffix}`).toMatchObject({ status: 404001, data: null });
    }
    expect((await other.browser.call("/api/v1/account/channels")).body.data).toEqual([]);
    const untouched = await repo.findChannelById(channelId);
    expect(untouched).toMatchObject({ weight: 5, state: "enabled" });
  });

  it("serves only models of the catalogue and only public addresses", async () => {
    const { browser } = await signIn("flagship");
    const modelKey = await catalogueModel();
    const unknown = await browser.call("/api/v1/account/channels", { body: { ...channelBody(modelKey), models: [modelKey, "no-such-model"] }, lang: "en" });
    expect(unknown.body).toMatchObject({ status: 400001, data: { fields: [{ path: "models.1", message: "Choose models from the model catalogue" }] } });
    for (const base_url of [
      "http://10.0.0.5/v1",
      "http://localhost:8080/v1",
      "http://169.254.169.254/latest",
      "http://[::1]:9000/v1",
      "http://127.0.0.1:1/v1",
      "http://[::ffff:192.168.1.1]/v1",
    ]) {
      const res = await browser.call("/api/v1/account/channels", { body: { ...channelBody(modelKey), base_url }, lang: "en" });
      expect(res.body, base_url).toMatchObject({ status: 400001, data: { fields: [{ path: "base_url" }] } });
      expect(res.body.description).toMatch(/public internet/);
    }
    const created = await browser.call("/api/v1/account/channels", { body: channelBody(modelKey) });
    const moved = await browser.call(`/api/v1/account/channels/${created.body.data.id}`, { method: "PATCH", body: { base_url: "http://192.168.0.10/v1" } });
    expect(moved.body.status).toBe(400001);
    expect((await repo.findChannelById(created.body.data.id))?.baseUrl).toBe(fake.base);
    expect(await getDb().channel.count({ where: { baseUrl: { contains: "10.0.0.5" } } })).toBe(0);
  });

  it("judges host names by what they resolve to", async () => {
    const resolver = (answers: string[]) => async () => answers;
    await expect(assertPublicBaseUrl("https://api.example.com/v1", resolver(["93.184.216.34"]))).resolves.toBeUndefined();
    await expect(assertPublicBaseUrl("https://rebind.example.com/v1", resolver(["93.184.216.34", "10.1.2.3"]))).rejects.toThrow(/base_url_private/);
    await expect(assertPublicBaseUrl("https://nowhere.invalid/v1", resolver([]))).rejects.toThrow(/base_url_unresolved/);
  });

  it("checks the address again when testing: a stored loopback address is refused at connect time", async () => {
    const { browser } = await signIn("flagship");
    const modelKey = await catalogueModel();
    const created = await browser.call("/api/v1/account/channels", { body: channelBody(modelKey) });
    const allow = process.env.SSRF_ALLOWLIST;
    delete process.env.SSRF_ALLOWLIST;
    try {
      const res = await browser.call(`/api/v1/account/channels/${created.body.data.id}/test`, { body: {}, lang: "en" });
      expect(res.body).toMatchObject({ status: 420020, description: "Channel test failed" });
      expect(res.body.data.error).toMatch(/not a public address/);
    } finally {
      process.env.SSRF_ALLOWLIST = allow;
    }
  });
});

describe("routing", () => {
  it("uses the account's own key for its requests only, before the platform's channels", async () => {
    const owner = await signIn("flagship");
    const other = await signIn("flagship");
    const modelKey = await catalogueModel();
    const platformKey = `sk-platform-${uid()}`;
    const platform = await createChannel(
      ZCreateChannelInput.parse({ name: "platform", type: "openai", base_url: fake.base, key: platformKey, models: [modelKey], weight: 100, priority: 100 }),
    );
    const body = channelBody(modelKey);
    const own = (await owner.browser.call("/api/v1/account/channels", { body: { ...body, priority: -5, weight: 1 } })).body.data.id as string;

    for (let i = 0; i < 5; i++) expect((await completeChat({ modelKey, messages: MESSAGES, accountId: owner.id })).channelId).toBe(own);
    for (let i = 0; i < 5; i++) expect((await completeChat({ modelKey, messages: MESSAGES, accountId: other.id })).channelId).toBe(platform.id);
    expect((await completeChat({ modelKey, messages: MESSAGES })).channelId).toBe(platform.id);
    expect(fake.requestsFor(body.key)).toBe(5);
    expect(fake.requestsFor(platformKey)).toBe(6);

    // When the own key fails, the owner's request falls back to the platform's channel.
    fake.setBehaviour(body.key, { fail: "500", failTimes: 6 }); // the key has answered 5 already
    expect((await completeChat({ modelKey, messages: MESSAGES, accountId: owner.id })).channelId).toBe(platform.id);
  });
});

describe("requests through an own channel", () => {
  it("connect only to public addresses: an address that turned private is refused and the platform answers", async () => {
    const owner = await signIn("flagship");
    const modelKey = await catalogueModel();
    const platformKey = `sk-platform-${uid()}`;
    const platform = await createChannel(
      ZCreateChannelInput.parse({ name: "platform", type: "openai", base_url: fake.base, key: platformKey, models: [modelKey] }),
    );
    const body = channelBody(modelKey);
    const ownId = (await owner.browser.call("/api/v1/account/channels", { body })).body.data.id as string;
    expect((await completeChat({ modelKey, messages: MESSAGES, accountId: owner.id })).channelId).toBe(ownId);

    // The operator withdraws the loopback exemption: the stored address is refused when connecting.
    const allow = process.env.SSRF_ALLOWLIST;
    delete process.env.SSRF_ALLOWLIST;
    try {
      const res = await completeChat({ modelKey, messages: MESSAGES, accountId: owner.id });
      expect(res.channelId).toBe(platform.id);
      const [log] = await repo.findModelRequestLogs(res.requestId);
      expect((log.attempts as Array<{ channelId: string; error: string | null }>)[0]).toMatchObject({
        channelId: ownId,
        error: expect.stringMatching(/not a public address/),
      });
      // A name instead of the literal address (as after a DNS change) is refused the same way.
      await getDb().channel.update({ where: { id: ownId }, data: { baseUrl: fake.base.replace("127.0.0.1", "localhost") } });
      expect((await completeChat({ modelKey, messages: MESSAGES, accountId: owner.id })).channelId).toBe(platform.id);
    } finally {
      process.env.SSRF_ALLOWLIST = allow;
    }
    expect(fake.requestsFor(body.key)).toBe(1);
  });
});

describe("channel test and banned keys", () => {
  it("a test that meets a banned key disables the channel with key_banned", async () => {
    const modelKey = await catalogueModel();
    const key = `sk-banned-${uid()}`;
    const ch = await createChannel(ZCreateChannelInput.parse({ name: "to be banned", type: "openai", base_url: fake.base, key, models: [modelKey] }));
    expect(await testChannel(ch.id, probeMediaChannel)).toMatchObject({ ok: true });
    fake.setBehaviour(key, { fail: "403_banned" });
    await expect(testChannel(ch.id, probeMediaChannel)).rejects.toMatchObject({ code: "channel_test_failed" });
    expect(await repo.findChannelById(ch.id)).toMatchObject({ state: "disabled_auto", disabledReason: "key_banned" });
    // An ordinary failure does not disable it (the test never counts toward auto-disable).
    const other = `sk-flaky-${uid()}`;
    const ch2 = await createChannel(ZCreateChannelInput.parse({ name: "flaky", type: "openai", base_url: fake.base, key: other, models: [modelKey] }));
    fake.setBehaviour(other, { fail: "500" });
    await expect(testChannel(ch2.id, probeMediaChannel)).rejects.toMatchObject({ code: "channel_test_failed" });
    expect((await repo.findChannelById(ch2.id))?.state).toBe("enabled");
  });
});

describe("admin routes", () => {
  it("refuses a signed-in non-administrator with no_permission on every verb", async () => {
    const { browser } = await signIn("enterprise");
    for (const [method, path] of [
      ["GET", "/api/v1/admin/models"],
      ["POST", "/api/v1/admin/models"],
      ["PATCH", "/api/v1/admin/models/x"],
      ["DELETE", "/api/v1/admin/models/x"],
      ["GET", "/api/v1/admin/channels"],
      ["POST", "/api/v1/admin/channels"],
      ["PATCH", "/api/v1/admin/channels/x"],
      ["DELETE", "/api/v1/admin/channels/x"],
      ["POST", "/api/v1/admin/channels/x/test"],
      ["POST", "/api/v1/admin/channels/x/enable"],
      ["POST", "/api/v1/admin/channels/x/disable"],
    ] as const) {
      const res = await browser.call(path, { method, body: method === "GET" || method === "DELETE" ? undefined : { key: "m", weight: 1 } });
      expect(res.body.status, `${method} ${path}`).toBe(403001);
    }
  });

  it("lists platform channels only, with their recent failures", async () => {
    const admin = await signIn("basic", ["platform_admin"]);
    const owner = await signIn("flagship");
    const modelKey = await catalogueModel();
    const ownId = (await owner.browser.call("/api/v1/account/channels", { body: channelBody(modelKey) })).body.data.id;
    const key = `sk-failing-${uid()}`;
    const ch = await createChannel(ZCreateChannelInput.parse({ name: "failing", type: "openai", base_url: fake.base, key, models: [modelKey], priority: 50 }));
    fake.setBehaviour(key, { fail: "500", failTimes: 1 });
    // The only platform channel fails once: the request fails, and the failure is counted.
    await completeChat({ modelKey, messages: MESSAGES }).catch(() => null);
    const list = (await admin.browser.call("/api/v1/admin/channels")).body.data as Array<{ id: string; recent_failures: number }>;
    expect(list.some((c) => c.id === ownId)).toBe(false);
    expect(list.find((c) => c.id === ch.id)?.recent_failures).toBe(1);
  });
});
