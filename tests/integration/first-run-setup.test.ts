// First-run setup on a database of its own: the shared test database has administrators made by
// other files, and setup exists only while there is none. Through the REST route, as /setup posts.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { applyMigrations } from "../../server/db/migrate";
import { getWallet } from "../../server/money/ledger.service";
import { EXPERIENCE_BONUS_MICRO } from "../../server/money/money.constants";
import { dropSingleton } from "../../server/lib/singleton";
import { announceSetupCode, issueSetupCode, isSetupOpen } from "../../server/platform/setup.service";
import { Browser, startApiServer } from "../helpers/api-client";
import { createFreshDatabase } from "../helpers/fresh-database";

let fresh: Awaited<ReturnType<typeof createFreshDatabase>>;
let api: Awaited<ReturnType<typeof startApiServer>>;
let code = "";
const ip = () => `10.${crypto.randomInt(0, 255)}.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`;
const PASSWORD = "First-Admin-26";
const form = (extra: Record<string, unknown> = {}) => ({ code, account: "first_admin", nickname: "Ops", password: PASSWORD, confirm: PASSWORD, ...extra });
const post = (b: Browser, body: unknown, lang = "en") => b.call("/api/v1/setup", { body, lang });

async function accounts() {
  return getDb().account.findMany({ select: { account: true, roles: true }, orderBy: { account: "asc" } });
}

beforeAll(async () => {
  fresh = await createFreshDatabase();
  await applyMigrations(fresh.url);
  await getDb().$disconnect();
  dropSingleton("prisma");
  process.env.DATABASE_URL = fresh.url;
  api = await startApiServer();
});
afterAll(async () => {
  await api?.close();
  await getDb().$disconnect();
  dropSingleton("prisma");
  await fresh?.drop();
});

describe("first-run setup", () => {
  it("is open on a fresh install, whose start prints a code in one line", async () => {
    expect(await isSetupOpen()).toBe(true);
    const lines: string[] = [];
    const issued = await announceSetupCode("http://localhost:3000", (line) => lines.push(line));
    expect(issued.state).toBe("issued");
    code = issued.state === "issued" ? issued.code : "";
    expect(code).toMatch(/^[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}$/);
    expect(lines).toEqual([`SETUP: no administrator yet. Open http://localhost:3000/setup and enter code ${code}`]);
  });

  it("keeps that code when another instance starts at the same time, and says where it is", async () => {
    const lines: string[] = [];
    expect((await announceSetupCode("http://localhost:3000/", (line) => lines.push(line))).state).toBe("kept");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^SETUP: no administrator yet\. Open http:\/\/localhost:3000\/setup and enter the code another instance printed at .+npm run admin -- setup-code/,
    );
    expect(lines[0]).not.toContain(code);
  });

  it("refuses a wrong or missing code, counts each wrong guess, and writes no account", async () => {
    const b = new Browser(api.base, ip());
    const wrong = code.startsWith("A") ? "BBBB-BBBB" : "AAAA-AAAA";
    const res = await post(b, form({ code: wrong }));
    expect(res.body).toMatchObject({ status: 421102, description: expect.stringContaining("setup code is wrong") });
    expect((await post(b, form({ code: "" }))).body.data.fields[0]).toMatchObject({
      path: "code",
      message: "The setup code has 8 letters and digits, like K7QM-4XPA",
    });
    const counted = await getDb().loginAttempt.count({ where: { account: `#setup@${b.ip}`, success: false } });
    expect(counted).toBe(1);
    expect(await accounts()).toEqual([]);
    expect(b.cookies.get("zl_session")).toBeUndefined();
  });

  it("locks an address out after five wrong codes, even with the right one", async () => {
    const b = new Browser(api.base, ip());
    for (let i = 0; i < 5; i++) expect((await post(b, form({ code: `AAAA-AAA${"23456"[i]}` }))).body.status).toBe(421102);
    expect((await post(b, form())).body).toMatchObject({ status: 420102 });
    expect(await accounts()).toEqual([]);
  });

  it("refuses a password that is not strict, or not confirmed, with a localized field error, and keeps the code", async () => {
    const b = new Browser(api.base, ip());
    const weak = await post(b, form({ password: "secret123", confirm: "secret123" }));
    expect(weak.body.status).toBe(400001);
    expect(weak.body.description).toBe("Use 10-16 characters with upper and lower case letters, a digit and a symbol");
    expect(new Set(weak.body.data.fields.map((f: { path: string }) => f.path))).toEqual(new Set(["password"]));
    const chinese = await post(b, form({ password: "secret123", confirm: "secret123" }), "zh_hans");
    expect(chinese.body.data.fields[0].message).toMatch(/[\u4e00-\u9fff]/);
    expect((await post(b, form({ confirm: "Another-Pass-1" }))).body.data.fields).toEqual([{ path: "confirm", message: "The passwords do not match" }]);
    expect(await accounts()).toEqual([]);
    expect(await getDb().loginAttempt.count({ where: { account: `#setup@${b.ip}` } })).toBe(0);
  });

  it("refuses a taken account name and keeps the code for another try", async () => {
    await getDb().account.create({ data: { account: "taken_name", nickname: "Someone", roles: ["individual_developer"] } });
    const res = await post(new Browser(api.base, ip()), form({ account: "taken_name" }));
    expect(res.body.status).toBe(420107);
    expect((await accounts()).map((a) => a.account)).toEqual(["taken_name"]);
  });

  it("makes exactly one administrator when two setups race with the code, and signs the winner in", async () => {
    const [a, b] = [new Browser(api.base, ip()), new Browser(api.base, ip())];
    const results = await Promise.all([post(a, form({ account: "racer_one" })), post(b, form({ account: "racer_two" }))]);
    const won = results.filter((r) => r.body.status === 200);
    expect(won).toHaveLength(1);
    expect([421101, 421102]).toContain(results.find((r) => r.body.status !== 200)!.body.status);
    const admins = (await accounts()).filter((x) => x.roles.includes("platform_admin"));
    expect(admins).toHaveLength(1);
    expect(admins[0].roles).toEqual(["platform_admin", "individual_developer"]);
    const winner = results[0].body.status === 200 ? a : b;
    const me = await winner.call("/api/v1/account/me");
    expect(me.body.data).toMatchObject({ account: admins[0].account, roles: ["platform_admin", "individual_developer"] });
    expect(await getDb().systemSetting.findUnique({ where: { key: "setup_code" } })).toBeNull();
    // The experience bonus every new account gets, granted once to the winner only.
    const adminId = (await getDb().account.findUniqueOrThrow({ where: { account: admins[0].account }, select: { id: true } })).id;
    expect((await getWallet(adminId)).gift).toBe(EXPERIENCE_BONUS_MICRO);
    expect(await getDb().ledgerTransaction.count({ where: { kind: "bonus" } })).toBe(1);
  });

  it("is closed once an administrator exists: the page, the route, a new code and the start's line", async () => {
    expect(await isSetupOpen()).toBe(false);
    const res = await post(new Browser(api.base, ip()), form({ account: "late_comer" }));
    expect(res.body).toMatchObject({ status: 421101, description: "There is already a platform administrator: sign in instead" });
    expect(await issueSetupCode({ force: true })).toEqual({ state: "closed" });
    const lines: string[] = [];
    expect((await announceSetupCode("http://localhost:3000", (line) => lines.push(line))).state).toBe("closed");
    expect(lines).toEqual([]);
    expect((await accounts()).map((a) => a.account)).not.toContain("late_comer");
  });
});
