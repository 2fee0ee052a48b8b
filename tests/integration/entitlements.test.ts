// Edition limits and the access helper every area uses.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertOwned } from "../../server/accounts/access";
import { assertFeature, assertWithinLimit, getChatsPerDay, getEntitlements } from "../../server/accounts/entitlements.service";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { startSession } from "../../server/auth/session.service";
import { Browser, startApiServer } from "../helpers/api-client";

const run = crypto.randomBytes(3).toString("hex");
let n = 0;
async function makeAccount(edition: "basic" | "professional" | "flagship" | "enterprise" | "education", expiresInDays: number | null = 30) {
  return getDb().account.create({
    data: {
      account: `e${run}${++n}`,
      nickname: "E",
      roles: ["individual_developer"],
      edition,
      editionExpiresAt: expiresInDays === null ? null : new Date(Date.now() + expiresInDays * 86_400_000),
    },
    select: { id: true, enterpriseId: true, roles: true },
  });
}
async function refusal(p: Promise<unknown>, lng = "en") {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, lng).envelope;
}

describe("edition limits", () => {
  it("basic allows one agent, and the refusal names the edition to upgrade to", async () => {
    const a = await makeAccount("basic", null);
    expect(await assertWithinLimit(a.id, "agents", 0)).toBe(0);
    expect(await refusal(assertWithinLimit(a.id, "agents", 1))).toEqual({
      status: 420113,
      description: "Your edition does not include this: upgrade to Professional",
      data: { resource: "agents", limit: 1, upgrade: "professional" },
    });
    expect((await refusal(assertWithinLimit(a.id, "agents", 1), "zh_hans")).description).toBe("当前版本不支持，请升级到专业版");
  });

  it("professional allows ten, flagship is unlimited", async () => {
    const pro = await makeAccount("professional");
    expect(await assertWithinLimit(pro.id, "apps", 9)).toBe(0);
    expect((await refusal(assertWithinLimit(pro.id, "apps", 10))).data).toMatchObject({ limit: 10, upgrade: "flagship" });
    const flag = await makeAccount("flagship");
    expect(await assertWithinLimit(flag.id, "apps", 10_000)).toBeNull();
  });

  it("bots: none on basic, with the bot message", async () => {
    const a = await makeAccount("basic", null);
    expect(await refusal(assertWithinLimit(a.id, "bots", 0))).toMatchObject({ status: 420028, description: "Bot limit reached, please upgrade" });
  });

  it("features: distribution needs professional, sub-accounts need enterprise or education", async () => {
    const basic = await makeAccount("basic", null);
    expect((await refusal(assertFeature(basic.id, "distribution"))).description).toBe("Your edition does not include this: upgrade to Professional");
    const pro = await makeAccount("professional");
    await assertFeature(pro.id, "distribution");
    expect((await refusal(assertFeature(pro.id, "subAccounts"))).description).toBe("Your edition does not include this: upgrade to Enterprise");
    await assertFeature((await makeAccount("education")).id, "subAccounts");
    expect((await refusal(assertFeature((await makeAccount("education")).id, "privateKeyService"))).data).toEqual({ feature: "privateKeyService" });
  });

  it("chats per day follow the edition: 20, 100, 200", async () => {
    expect(await getChatsPerDay((await makeAccount("basic", null)).id)).toBe(20);
    expect(await getChatsPerDay((await makeAccount("professional")).id)).toBe(100);
    expect(await getChatsPerDay((await makeAccount("flagship")).id)).toBe(200);
  });

  it("a membership that has ended falls back to basic", async () => {
    const lapsed = await makeAccount("professional", -1);
    expect((await getEntitlements(lapsed.id)).edition).toBe("basic");
    expect((await refusal(assertWithinLimit(lapsed.id, "agents", 1))).status).toBe(420113);
  });
});

describe("access", () => {
  it("someone else's record is not found, never its data", async () => {
    const owner = await makeAccount("basic", null);
    const other = await makeAccount("basic", null);
    const record = { accountId: owner.id, enterpriseId: null, secret: "x" };
    expect(assertOwned(record, { ...owner, roles: owner.roles })).toBe(record);
    expect(await refusal(Promise.resolve().then(() => assertOwned(record, { ...other, roles: other.roles })))).toMatchObject({ status: 404001, data: null });
    expect(await refusal(Promise.resolve().then(() => assertOwned(null, { ...owner, roles: owner.roles })))).toMatchObject({ status: 404001 });
  });

  it("enterprise administrators reach their enterprise's records only when the area allows it", async () => {
    const ent = await getDb().enterprise.create({ data: { name: "Acme", domain: `acme${run}` } });
    const staff = { id: "s1", enterpriseId: ent.id, roles: ["enterprise_staff"] };
    const admin = { id: "a1", enterpriseId: ent.id, roles: ["enterprise_admin"] };
    const outsider = { id: "o1", enterpriseId: "other", roles: ["enterprise_admin"] };
    const record = { accountId: "s1", enterpriseId: ent.id };
    expect(assertOwned(record, admin, { enterpriseWide: true })).toBe(record);
    expect(() => assertOwned(record, admin)).toThrow();
    expect(() => assertOwned(record, outsider, { enterpriseWide: true })).toThrow();
    expect(() => assertOwned({ accountId: "a1", enterpriseId: ent.id }, staff, { enterpriseWide: true })).toThrow();
  });
});

describe("settings over REST act only on the signed-in account", () => {
  let api: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api.close());

  it("app keys: the secret is shown once, stored sealed, and each account sees only its own", async () => {
    const a = new Browser(api.base, "10.9.0.1");
    const b = new Browser(api.base, "10.9.0.2");
    await a.call("/api/v1/auth/register", { body: { account: `ka${run}`, password: "secret123", confirm: "secret123", agreed: true } });
    await b.call("/api/v1/auth/register", { body: { account: `kb${run}`, password: "secret123", confirm: "secret123", agreed: true } });
    const created = (await a.call("/api/v1/account/app_key/reset", { body: {} })).body.data;
    expect(created.app_secret).toMatch(/^zs_/);
    const row = await getDb().appKey.findUnique({ where: { appKey: created.app_key } });
    expect(row?.secretEncrypted).not.toContain(created.app_secret);
    expect((await a.call("/api/v1/account/app_key")).body.data).toEqual({
      app_key: created.app_key,
      secret_hint: created.secret_hint,
      updated_at: expect.any(String),
    });
    expect((await a.call("/api/v1/account/app_key")).body.data.app_secret).toBeUndefined();
    expect((await b.call("/api/v1/account/app_key")).body.data).toBeNull();
    expect((await new Browser(api.base).call("/api/v1/account/app_key")).body.status).toBe(110003);
  });

  it("platform administrators act by role; other accounts are refused and change nothing", async () => {
    const admin = await getDb().account.create({ data: { account: `pa${run}`, nickname: "Ops", roles: ["platform_admin"] }, select: { id: true } });
    const a = new Browser(api.base, "10.9.0.4");
    a.cookies.set("zl_session", (await startSession(admin.id)).token);
    const user = new Browser(api.base, "10.9.0.5");
    await user.call("/api/v1/auth/register", { body: { account: `kd${run}`, password: "secret123", confirm: "secret123", agreed: true } });
    const items = [{ img_name: "Focus", img_url: "/focus.png", screen_control: 1 }];
    expect((await user.call("/api/v1/admin/screen_lock", { method: "PUT", body: { items } })).body.status).toBe(403001);
    expect((await user.call("/api/v1/system/screen_lock")).body.data.screen_control).toBe(0);
    expect((await a.call("/api/v1/admin/screen_lock", { method: "PUT", body: { items } })).body.data.screen_control).toBe(1);
    expect((await a.call("/api/v1/admin/screen_lock", { method: "PUT", body: { items: [] } })).body.data.screen_control).toBe(0);
  });

  it("profile: nickname rules, and languages from the list only", async () => {
    const a = new Browser(api.base, "10.9.0.3");
    await a.call("/api/v1/auth/register", { body: { account: `kc${run}`, password: "secret123", confirm: "secret123", agreed: true } });
    expect((await a.call("/api/v1/account/profile", { method: "PUT", body: { nickname: "新的昵称", language: "zh_hant" } })).body.data).toMatchObject({
      nickname: "新的昵称",
      language: "zh_hant",
    });
    expect((await a.call("/api/v1/account/profile", { method: "PUT", body: { nickname: "" } })).body.status).toBe(400001);
    expect((await a.call("/api/v1/account/profile", { method: "PUT", body: { language: "klingon" } })).body.status).toBe(400001);
    expect((await a.call("/api/v1/account/me")).body.data.nickname).toBe("新的昵称");
  });
});
