// Registration, login, sessions and their refusals on the real database.
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { Browser, startApiServer } from "../helpers/api-client";

let api: Awaited<ReturnType<typeof startApiServer>>;
const run = crypto.randomBytes(3).toString("hex");
let n = 0;
const name = (p = "u") => `${p}${run}${++n}`.slice(0, 18);
const phone = () => `139${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}`;
const ip = () => `10.${crypto.randomInt(0, 255)}.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`;

function setEnv(env: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

async function register(b: Browser, account: string, extra: Record<string, unknown> = {}) {
  return b.call("/api/v1/auth/register", { body: { account, password: "secret123", confirm: "secret123", agreed: true, ...extra } });
}

beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());
afterEach(() => setEnv({ REGISTRATION_MODE: undefined, STRICT_PASSWORD: undefined }));

describe("registration", () => {
  it("open registration creates the account and signs it in", async () => {
    const b = new Browser(api.base, ip());
    const account = name();
    const res = await register(b, account);
    expect(res.body).toMatchObject({ status: 200, data: { account: { account, nickname: account, roles: ["individual_developer"], edition: "basic" } } });
    expect(b.cookies.get("zl_session")).toBeTruthy();
    expect((await b.call("/api/v1/account/me")).body.data.account).toBe(account);
    const english = new Browser(api.base, ip());
    await english.call("/api/v1/auth/register", { body: { account: name(), password: "secret123", confirm: "secret123", agreed: true }, lang: "en" });
    expect((await english.call("/api/v1/account/me")).body.data.language).toBe("en");
  });

  it("refuses a taken name, a bad name, mismatched passwords and a missing agreement, writing nothing", async () => {
    const b = new Browser(api.base, ip());
    const account = name();
    await register(b, account);
    const before = await getDb().account.count();
    expect((await register(new Browser(api.base), account, {})).body).toMatchObject({ status: 420107 });
    expect((await register(new Browser(api.base), "ab", {})).body.data.fields[0]).toMatchObject({ path: "account" });
    expect(
      (
        await new Browser(api.base).call("/api/v1/auth/register", {
          body: { account: name(), password: "secret123", confirm: "secret124", agreed: true },
          lang: "en",
        })
      ).body,
    ).toMatchObject({ status: 400001, description: "The passwords do not match" });
    expect((await register(new Browser(api.base), name(), { agreed: false })).body.data.fields[0]).toMatchObject({ path: "agreed" });
    expect(await getDb().account.count()).toBe(before);
  });

  it("applies the strict password rule where it is turned on", async () => {
    setEnv({ STRICT_PASSWORD: "1" });
    const weak = await new Browser(api.base).call("/api/v1/auth/register", {
      body: { account: name(), password: "secret123", confirm: "secret123", agreed: true },
      lang: "en",
    });
    expect(weak.body.description).toMatch(/10-16 characters/);
    const strong = await new Browser(api.base).call("/api/v1/auth/register", {
      body: { account: name(), password: "Str0ng!Pass", confirm: "Str0ng!Pass", agreed: true },
    });
    expect(strong.body.status).toBe(200);
  });

  it("invitation mode needs a valid code, and a single-use code serves exactly one of two racing registrations", async () => {
    setEnv({ REGISTRATION_MODE: "invitation" });
    expect((await register(new Browser(api.base), name())).body.status).toBe(420109);
    expect((await register(new Browser(api.base), name(), { invitation_code: "NOPE" })).body.status).toBe(420109);
    const code = `INV${run}`.toUpperCase();
    await getDb().invitationCode.create({ data: { code, maxUses: 1 } });
    const [a, b] = await Promise.all([
      register(new Browser(api.base), name(), { invitation_code: code }),
      register(new Browser(api.base), name(), { invitation_code: code }),
    ]);
    expect([a.body.status, b.body.status].sort()).toEqual([200, 420109]);
    expect((await getDb().invitationCode.findUnique({ where: { code } }))?.uses).toBe(1);
  });

  it("paid mode answers that payment comes next, and closed mode refuses", async () => {
    setEnv({ REGISTRATION_MODE: "paid" });
    expect((await register(new Browser(api.base), name())).body).toMatchObject({ status: 420111, data: { next: "payment" } });
    setEnv({ REGISTRATION_MODE: "closed" });
    expect((await register(new Browser(api.base), name())).body.status).toBe(420110);
  });
});

describe("login throttling", () => {
  it("locks an account after 5 failures, even for the right password, and the lock ends by itself", async () => {
    const account = name();
    await register(new Browser(api.base), account);
    const b = new Browser(api.base, ip());
    for (let i = 0; i < 5; i++) {
      expect((await b.call("/api/v1/auth/login", { body: { account, password: "wrong-pass", agreed: true } })).body.status).toBe(420101);
    }
    const locked = await b.call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true }, lang: "en" });
    expect(locked.body).toMatchObject({ status: 420102, description: "Too many failed logins. Try again in 15 minutes" });
    // Fifteen minutes later (moved back in the log rather than waiting):
    await getDb().loginAttempt.updateMany({ where: { account }, data: { createdAt: new Date(Date.now() - 16 * 60_000) } });
    expect((await b.call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true } })).body.status).toBe(200);
  });

  it("locks an address that tries many accounts", async () => {
    const b = new Browser(api.base, ip());
    for (let i = 0; i < 20; i++) await b.call("/api/v1/auth/login", { body: { account: name("x"), password: "wrong-pass", agreed: true } });
    const account = name();
    await register(new Browser(api.base), account);
    expect((await b.call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true } })).body.status).toBe(420102);
    expect((await new Browser(api.base, ip()).call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true } })).body.status).toBe(200);
  });

  it("needs the agreement to log in", async () => {
    const account = name();
    await register(new Browser(api.base), account);
    const res = await new Browser(api.base, ip()).call("/api/v1/auth/login", { body: { account, password: "secret123" }, lang: "zh_hans" });
    expect(res.body).toMatchObject({ status: 400001, description: "请先阅读并同意《用户协议》和《隐私政策》" });
  });
});

describe("sessions", () => {
  it("a password change ends the account's other sessions, and logout ends this one", async () => {
    const account = name();
    const a = new Browser(api.base, ip());
    await register(a, account);
    const b = new Browser(api.base, ip());
    expect((await b.call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true } })).body.status).toBe(200);
    expect((await a.call("/api/v1/auth/password/change", { body: { current: "secret123", password: "newsecret1", confirm: "newsecret1" } })).body.status).toBe(
      200,
    );
    expect((await b.call("/api/v1/account/me")).body.status).toBe(110003);
    expect((await a.call("/api/v1/account/me")).body.status).toBe(200);
    expect((await b.call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true } })).body.status).toBe(420101);
    expect((await b.call("/api/v1/auth/login", { body: { account, password: "newsecret1", agreed: true } })).body.status).toBe(200);
    await a.call("/api/v1/auth/logout", { body: {} });
    expect((await a.call("/api/v1/account/me")).body.status).toBe(110003);
    expect((await b.call("/api/v1/account/me")).body.status).toBe(200);
  });

  it("refuses a wrong current password without changing anything", async () => {
    const a = new Browser(api.base, ip());
    const account = name();
    await register(a, account);
    expect((await a.call("/api/v1/auth/password/change", { body: { current: "not-it", password: "newsecret1", confirm: "newsecret1" } })).body.status).toBe(
      420101,
    );
    expect((await new Browser(api.base, ip()).call("/api/v1/auth/login", { body: { account, password: "secret123", agreed: true } })).body.status).toBe(200);
  });

  it("refuses writes without the CSRF token", async () => {
    const a = new Browser(api.base, ip());
    await register(a, name());
    expect((await a.call("/api/v1/auth/logout", { body: {}, csrf: null })).body.status).toBe(420114);
    expect((await a.call("/api/v1/auth/logout", { body: {}, csrf: "forged" })).body.status).toBe(420114);
    expect((await a.call("/api/v1/account/me")).body.status).toBe(200);
  });
});

describe("SMS codes", () => {
  async function withPhone() {
    const b = new Browser(api.base, ip());
    const p = phone();
    await register(b, name());
    await getDb().account.update({
      where: { account: [...b.cookies.keys()].length ? (await b.call("/api/v1/account/me")).body.data.account : "" },
      data: { phone: p },
    });
    return { b, p };
  }
  const lastCode = async (p: string) => /\d{6}/.exec((await getDb().devSmsMessage.findFirst({ where: { phone: p }, orderBy: { id: "desc" } }))!.text)![0];

  it("logs in with the code the provider delivered, once", async () => {
    const { p } = await withPhone();
    const c = new Browser(api.base, ip());
    expect((await c.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "login" } })).body.status).toBe(200);
    const code = await lastCode(p);
    expect((await c.call("/api/v1/auth/login/sms", { body: { phone: p, code, agreed: true } })).body.status).toBe(200);
    expect((await new Browser(api.base, ip()).call("/api/v1/auth/login/sms", { body: { phone: p, code, agreed: true } })).body.status).toBe(420105);
  });

  it("sends at most one code a minute and ten a day per phone", async () => {
    const { p } = await withPhone();
    const c = new Browser(api.base, ip());
    expect((await c.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "login" } })).body.status).toBe(200);
    const again = await c.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "login" }, lang: "en" });
    expect(again.body.status).toBe(420103);
    expect(again.body.description).toMatch(/Try again in \d+ seconds/);
    for (let i = 0; i < 9; i++) {
      await getDb().smsCode.updateMany({ where: { phone: p }, data: { createdAt: new Date(Date.now() - (i + 2) * 61_000) } });
      expect((await c.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "login" } })).body.status).toBe(i < 9 ? 200 : 420104);
    }
    await getDb().smsCode.updateMany({ where: { phone: p }, data: { createdAt: new Date(Date.now() - 3 * 61_000) } });
    expect((await c.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "login" } })).body.status).toBe(420104);
  });

  it("a code stops working after five wrong guesses", async () => {
    const { p } = await withPhone();
    const c = new Browser(api.base, ip());
    await c.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "login" } });
    const code = await lastCode(p);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await c.call("/api/v1/auth/login/sms", { body: { phone: p, code: wrong, agreed: true } })).body.status).toBe(420105);
    expect((await c.call("/api/v1/auth/login/sms", { body: { phone: p, code, agreed: true } })).body.status).not.toBe(200);
  });

  it("forgot password: a code resets it and ends every session", async () => {
    const { b, p } = await withPhone();
    const c = new Browser(api.base, ip());
    expect((await c.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "reset_password" } })).body.status).toBe(200);
    const code = await lastCode(p);
    expect((await c.call("/api/v1/auth/password/reset", { body: { phone: p, code, password: "reset-pass-1", confirm: "reset-pass-1" } })).body.status).toBe(
      200,
    );
    expect((await b.call("/api/v1/account/me")).body.status).toBe(110003);
    expect((await c.call("/api/v1/auth/login", { body: { account: p, password: "reset-pass-1", agreed: true } })).body.status).toBe(200);
  });

  it("says at once that an unknown phone has no account", async () => {
    expect((await new Browser(api.base, ip()).call("/api/v1/auth/sms/send", { body: { phone: phone(), purpose: "login" } })).body.status).toBe(420106);
  });
});

describe("enterprise login by domain (/sso_login)", () => {
  it("signs in the enterprise's members, refuses outsiders, and registers members by the enterprise's mode", async () => {
    const domain = `acme-${run}.example.cn`;
    const ent = await getDb().enterprise.create({ data: { name: "Acme", domain, registrationMode: "invitation", strictPassword: true } });
    const info = await new Browser(api.base).call(`/api/v1/qy/info_by_domain?domain=${domain}`);
    expect(info.body.data).toMatchObject({ name: "Acme", domain, registrationMode: "invitation", strict_password: true });
    expect(info.body.data.id).toBeUndefined();
    expect((await new Browser(api.base).call("/api/v1/qy/info_by_domain?domain=nobody.example")).body.status).toBe(420117);

    // Members register with an invitation of this enterprise and the strict password rule.
    const code = `ENT${run}`.toUpperCase();
    await getDb().invitationCode.create({ data: { code, enterpriseId: ent.id, maxUses: 5 } });
    const member = name("m");
    const weak = await new Browser(api.base, ip()).call("/api/v1/auth/register", {
      body: { account: member, password: "secret123", confirm: "secret123", invitation_code: code, agreed: true, domain },
    });
    expect(weak.body.status).toBe(400001);
    const ok = await new Browser(api.base, ip()).call("/api/v1/auth/register", {
      body: { account: member, password: "Str0ng!Pass", confirm: "Str0ng!Pass", invitation_code: code, agreed: true, domain },
    });
    expect(ok.body.data.account).toMatchObject({ enterpriseId: ent.id, roles: ["enterprise_staff"] });

    // An invitation of the platform (no enterprise) does not admit anyone to the enterprise.
    const platformCode = `PLT${run}`.toUpperCase();
    await getDb().invitationCode.create({ data: { code: platformCode, maxUses: 5 } });
    expect(
      (
        await new Browser(api.base, ip()).call("/api/v1/auth/register", {
          body: { account: name("m"), password: "Str0ng!Pass", confirm: "Str0ng!Pass", invitation_code: platformCode, agreed: true, domain },
        })
      ).body.status,
    ).toBe(420109);

    expect(
      (await new Browser(api.base, ip()).call("/api/v1/auth/login", { body: { account: member, password: "Str0ng!Pass", agreed: true, domain } })).body.status,
    ).toBe(200);
    const outsider = name();
    await register(new Browser(api.base), outsider);
    const refused = new Browser(api.base, ip());
    expect((await refused.call("/api/v1/auth/login", { body: { account: outsider, password: "secret123", agreed: true, domain } })).body.status).toBe(420101);
    expect(refused.cookies.get("zl_session")).toBeUndefined();
    const outsiderRow = await getDb().account.findUnique({ where: { account: outsider }, select: { _count: { select: { sessions: true } } } });
    expect(outsiderRow?._count.sessions).toBe(1); // only the one its registration started
  });
});
