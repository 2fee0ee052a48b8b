// The development SMS provider: a code goes to the server log and to /dev/sms, which only platform
// administrators can open (anyone else gets the not-found page: a code there signs its phone in),
// and a production configuration never sends codes through it by accident.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loader as devSmsLoader } from "../../app/routes/dev/sms";
import { startSession } from "../../server/auth/session.service";
import { chooseSmsProvider, DevSmsProvider } from "../../server/auth/sms/dev-sms-provider";
import { getDb } from "../../server/db/client";
import { parseEnv, resetEnvCache } from "../../server/env";
import { logger } from "../../server/lib/logger";
import { Browser, startApiServer } from "../helpers/api-client";

const ROOT = path.resolve(import.meta.dirname, "../..");
let api: Awaited<ReturnType<typeof startApiServer>>;
const run = crypto.randomBytes(3).toString("hex");
let n = 0;
const uniquePhone = () => `139${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}`;

async function makeAccount(roles: ("platform_admin" | "individual_developer")[] = []) {
  const phone = uniquePhone();
  const row = await getDb().account.create({ data: { account: `devsms${run}${++n}`, nickname: "SMS", phone, roles }, select: { id: true } });
  return { id: row.id, phone, token: (await startSession(row.id)).token };
}

/** The page's loader as Remix calls it, with the session cookie of `token` (none: a visitor). */
async function openOutbox(token?: string) {
  const request = new Request("http://localhost/dev/sms", { headers: token ? { cookie: `zl_session=${encodeURIComponent(token)}` } : {} });
  return devSmsLoader({ request, params: {}, context: {} }).then(
    (data) => ({ status: 200, data }),
    (thrown: unknown) => ({ status: thrown instanceof Response ? thrown.status : -1, data: null }),
  );
}

async function sendCode(phone: string) {
  return new Browser(api.base, `10.46.0.${(n % 200) + 1}`).call("/api/v1/auth/sms/send", { body: { phone, purpose: "login" }, lang: "en" });
}

/** Runs `work` as a production configuration: NODE_ENV=production on a database server. */
async function asProduction<T>(work: () => Promise<T>, extra: Record<string, string> = {}) {
  const saved = {
    NODE_ENV: process.env.NODE_ENV,
    ZELIN_EMBEDDED_DB: process.env.ZELIN_EMBEDDED_DB,
    ...Object.fromEntries(Object.keys(extra).map((k) => [k, process.env[k]])),
  };
  Object.assign(process.env, { NODE_ENV: "production", ZELIN_EMBEDDED_DB: "" }, extra);
  resetEnvCache();
  try {
    return await work();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
  }
}

beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());
afterEach(() => vi.restoreAllMocks());

describe("the development provider's codes", () => {
  it("go to the server log and to the outbox, which only platform administrators can open", async () => {
    const owner = await makeAccount();
    const info = vi.spyOn(logger, "info");
    expect((await sendCode(owner.phone)).body.status).toBe(200);
    const logged = info.mock.calls.find(([fields]) => (fields as { phone?: string }).phone === owner.phone);
    expect(logged?.[0]).toMatchObject({ phone: owner.phone, code: expect.stringMatching(/^\d{6}$/), purpose: "login" });
    const code = (logged![0] as { code: string }).code;

    // A visitor and an ordinary account see the not-found page, not the codes.
    expect(await openOutbox()).toEqual({ status: 404, data: null });
    expect(await openOutbox((await makeAccount(["individual_developer"])).token)).toEqual({ status: 404, data: null });
    expect(await openOutbox(owner.token)).toEqual({ status: 404, data: null });

    const page = await openOutbox((await makeAccount(["platform_admin"])).token);
    expect(page.status).toBe(200);
    const mine = page.data!.messages.find((m) => m.phone === owner.phone);
    expect(mine?.text).toContain(code);
  });
});

describe("a production configuration", () => {
  const production = { NODE_ENV: "production" as const, DATABASE_URL: "postgresql://db.internal/zelin" };

  it("stops the web process at start when SMS_PROVIDER=dev, with a sentence naming the settings", () => {
    const env = {
      ...process.env,
      ...production,
      DATABASE_URL: process.env.DATABASE_URL,
      SMS_PROVIDER: "dev",
      ALLOW_DEV_SMS: "",
      ZELIN_EMBEDDED_DB: "",
      PORT: "0",
    };
    const web = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
    expect(web.status).not.toBe(0);
    expect(web.stderr).toContain("SMS_PROVIDER: is dev, whose codes go to the server log and never to a phone");
    expect(web.stderr).toContain("ALLOW_DEV_SMS=1");
  });

  it("refuses to start with SMS_PROVIDER=dev unless ALLOW_DEV_SMS=1, naming the settings", () => {
    expect(() => parseEnv({ ...production, SMS_PROVIDER: "dev" })).toThrowError(/SMS_PROVIDER: is dev, .*set SMS_PROVIDER=aliyun, or ALLOW_DEV_SMS=1/);
    expect(chooseSmsProvider(parseEnv({ ...production, SMS_PROVIDER: "dev", ALLOW_DEV_SMS: "1" }))).toBe("dev");
    expect(() => new DevSmsProvider(parseEnv(production))).toThrowError(/ALLOW_DEV_SMS=1/);
  });

  it("has no SMS provider unless one is named; the demo and development runs keep the development one", () => {
    expect(chooseSmsProvider(parseEnv(production))).toBe("none");
    expect(chooseSmsProvider(parseEnv({ ...production, SMS_PROVIDER: "aliyun" }))).toBe("aliyun");
    // `npm start` on the embedded database, before and after it hosts it.
    expect(chooseSmsProvider(parseEnv({ NODE_ENV: "production" }))).toBe("dev");
    expect(chooseSmsProvider(parseEnv({ ...production, ZELIN_EMBEDDED_DB: "1" }))).toBe("dev");
    expect(chooseSmsProvider(parseEnv({ ...production, NODE_ENV: "development" }))).toBe("dev");
    expect(chooseSmsProvider(parseEnv({ ...production, NODE_ENV: "test" }))).toBe("dev");
  });

  it("refuses to send a code, in the user's language, and keeps nothing", async () => {
    const owner = await makeAccount();
    const admin = await makeAccount(["platform_admin"]);
    const answer = await asProduction(() => sendCode(owner.phone));
    expect(answer).toMatchObject({
      http: 503,
      body: { status: 420120, description: "SMS is not available on this platform; sign in with your password or another way" },
    });
    expect(await getDb().smsCode.count({ where: { phone: owner.phone } })).toBe(0);
    expect(await getDb().devSmsMessage.count({ where: { phone: owner.phone } })).toBe(0);
    // Nor is there an outbox, even for an administrator.
    expect(await asProduction(() => openOutbox(admin.token))).toEqual({ status: 404, data: null });
  });

  it("sends through the development provider when ALLOW_DEV_SMS=1 says so", async () => {
    const owner = await makeAccount();
    expect((await asProduction(() => sendCode(owner.phone), { ALLOW_DEV_SMS: "1" })).body.status).toBe(200);
    expect(await getDb().devSmsMessage.count({ where: { phone: owner.phone } })).toBe(1);
  });
});
