// Binding a phone to an account on the real database: the code goes to the new phone, a phone
// serves one account, replacing a bound phone needs the current password, SMS throttling applies,
// and every refusal leaves the account as it was. A bound phone then works for SMS login and for
// resetting a forgotten password.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { hashPassword } from "../../server/auth/password";
import { startSession } from "../../server/auth/session.service";
import { ERROR_CODES } from "../../server/errors/codes";
import { Browser, startApiServer } from "../helpers/api-client";

let api: Awaited<ReturnType<typeof startApiServer>>;
const run = crypto.randomBytes(3).toString("hex");
let n = 0;
const name = () => `pb${run}${++n}`;
const phone = () => `136${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}`;
const ip = () => `10.77.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`;
const status = (code: keyof typeof ERROR_CODES) => ERROR_CODES[code].status;

/** The newest code the development provider "sent" to the phone, or null. */
async function lastCode(p: string) {
  const row = await getDb().devSmsMessage.findFirst({ where: { phone: p }, orderBy: { id: "desc" }, select: { text: true } });
  return row ? /\d{6}/.exec(row.text)![0] : null;
}
const sentCount = (p: string) => getDb().devSmsMessage.count({ where: { phone: p } });
/** Lets the phone have another code now: the minute between codes has passed. */
const ageCodes = (p: string) => getDb().smsCode.updateMany({ where: { phone: p }, data: { createdAt: new Date(Date.now() - 2 * 60_000) } });
const phoneOf = async (account: string) => (await getDb().account.findUniqueOrThrow({ where: { account }, select: { phone: true } })).phone;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function registered(password = "secret123") {
  const b = new Browser(api.base, ip());
  const account = name();
  const res = await b.call("/api/v1/auth/register", { body: { account, password, confirm: password, agreed: true }, lang: "en" });
  expect(res.body.status).toBe(200);
  return { b, account };
}

const sendBindCode = (b: Browser, p: string) => b.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "bind_phone" }, lang: "en" });
const bind = (b: Browser, body: Record<string, unknown>) => b.call("/api/v1/account/phone", { body, lang: "en" });

/** Binds `p` to the signed-in account of `b` through the real flow. */
async function bindThrough(b: Browser, p: string, password?: string) {
  expect((await sendBindCode(b, p)).body.status).toBe(200);
  const res = await bind(b, { phone: p, code: await lastCode(p), ...(password ? { password } : {}) });
  expect(res.body).toMatchObject({ status: 200, data: { phone: p } });
}

beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());

describe("binding a phone", () => {
  it("binds the phone the code was sent to; the phone then logs in by SMS and resets the password", async () => {
    const { b, account } = await registered();
    const p = phone();
    const sent = await sendBindCode(b, p);
    expect(sent.body).toMatchObject({ status: 200, data: { retryAfterSeconds: 60 } });
    const res = await bind(b, { phone: `+86 ${p.slice(0, 3)} ${p.slice(3)}`, code: await lastCode(p) });
    expect(res.body).toMatchObject({ status: 200, data: { account, phone: p } });
    expect(await phoneOf(account)).toBe(p);
    expect((await b.call("/api/v1/account/me")).body.data.phone).toBe(p);

    // SMS login finds the account by the phone.
    await ageCodes(p);
    const other = new Browser(api.base, ip());
    expect((await other.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "login" } })).body.status).toBe(200);
    const login = await other.call("/api/v1/auth/login/sms", { body: { phone: p, code: await lastCode(p), agreed: true } });
    expect(login.body).toMatchObject({ status: 200, data: { account: { account } } });

    // So does the password reset, and the new password works.
    await ageCodes(p);
    const reset = new Browser(api.base, ip());
    expect((await reset.call("/api/v1/auth/sms/send", { body: { phone: p, purpose: "reset_password" } })).body.status).toBe(200);
    expect(
      (await reset.call("/api/v1/auth/password/reset", { body: { phone: p, code: await lastCode(p), password: "brand-new-1", confirm: "brand-new-1" } })).body
        .status,
    ).toBe(200);
    expect((await reset.call("/api/v1/auth/login", { body: { account, password: "brand-new-1", agreed: true } })).body.status).toBe(200);
  });

  it("needs a signed-in account: no code is sent and nothing is bound for a visitor", async () => {
    const visitor = new Browser(api.base, ip());
    const p = phone();
    expect((await sendBindCode(visitor, p)).body.status).toBe(status("not_logged_in"));
    expect(await sentCount(p)).toBe(0);
    expect((await bind(visitor, { phone: p, code: "123456" })).body.status).toBe(status("not_logged_in"));
    expect(await getDb().account.count({ where: { phone: p } })).toBe(0);
  });

  it("refuses a wrong code and a malformed phone, changing nothing; the right code still works after a wrong guess", async () => {
    const { b, account } = await registered();
    const p = phone();
    await sendBindCode(b, p);
    const code = (await lastCode(p))!;
    const wrong = await bind(b, { phone: p, code: wrongCode(code) });
    expect(wrong.body).toMatchObject({ status: status("sms_code_invalid"), description: "The code is wrong or has expired" });
    expect(await phoneOf(account)).toBeNull();
    const malformed = await bind(b, { phone: "12345", code });
    expect(malformed.body.status).toBe(status("validation_failed"));
    expect(malformed.body.data.fields[0]).toMatchObject({ path: "phone" });
    expect((await sendBindCode(b, "not a phone")).body.status).toBe(status("validation_failed"));
    expect(await phoneOf(account)).toBeNull();
    // One wrong guess does not spend the code: the right one still binds.
    expect((await bind(b, { phone: p, code })).body.status).toBe(200);
    expect(await phoneOf(account)).toBe(p);
  });

  it("a phone another account holds gets no code and cannot be bound; both accounts stay as they were", async () => {
    const holder = await registered();
    const p = phone();
    await bindThrough(holder.b, p);
    const { b, account } = await registered();
    const before = await sentCount(p);
    const refused = await sendBindCode(b, p);
    expect(refused.body).toMatchObject({ status: status("phone_taken"), description: "This phone number belongs to another account" });
    expect(await sentCount(p)).toBe(before);
    expect((await bind(b, { phone: p, code: await lastCode(p) })).body.status).toBe(status("phone_taken"));
    expect(await phoneOf(account)).toBeNull();
    expect(await phoneOf(holder.account)).toBe(p);
  });

  it("a phone taken by another account after its code was sent is refused at binding, and the code is left unused", async () => {
    const { b, account } = await registered();
    const p = phone();
    await sendBindCode(b, p);
    const code = await lastCode(p);
    const other = await getDb().account.create({ data: { account: name(), nickname: "Other", phone: p }, select: { id: true } });
    expect((await bind(b, { phone: p, code })).body.status).toBe(status("phone_taken"));
    expect(await phoneOf(account)).toBeNull();
    expect(await getDb().smsCode.count({ where: { phone: p, consumedAt: { not: null } } })).toBe(0);
    await getDb().account.delete({ where: { id: other.id } });
  });

  it("the phone already bound to the account is refused as unchanged, without a code", async () => {
    const { b, account } = await registered();
    const p = phone();
    await bindThrough(b, p);
    await ageCodes(p);
    const before = await sentCount(p);
    expect((await sendBindCode(b, p)).body.status).toBe(status("phone_unchanged"));
    expect(await sentCount(p)).toBe(before);
    expect(await phoneOf(account)).toBe(p);
  });

  it("replacing a bound phone needs the code on the new phone and the current password; the old phone is then free", async () => {
    const { b, account } = await registered("secret123");
    const first = phone();
    await bindThrough(b, first);
    const second = phone();
    await sendBindCode(b, second);
    const code = (await lastCode(second))!;
    const missing = await bind(b, { phone: second, code });
    expect(missing.body.status).toBe(status("invalid_credentials"));
    const wrongPassword = await bind(b, { phone: second, code, password: "not-mine-1" });
    expect(wrongPassword.body).toMatchObject({ status: status("invalid_credentials"), description: "The account or password is wrong" });
    // A wrong password counts as a failed login of the account (throttling).
    expect(await getDb().loginAttempt.count({ where: { account, success: false } })).toBe(1);
    const wrongCodeAnswer = await bind(b, { phone: second, code: wrongCode(code), password: "secret123" });
    expect(wrongCodeAnswer.body.status).toBe(status("sms_code_invalid"));
    expect(await phoneOf(account)).toBe(first);
    expect((await bind(b, { phone: second, code, password: "secret123" })).body).toMatchObject({ status: 200, data: { phone: second } });
    expect(await phoneOf(account)).toBe(second);
    // The old phone belongs to nobody now: another account may bind it.
    const next = await registered();
    await ageCodes(first);
    await bindThrough(next.b, first);
  });

  it("an account without a password (made by WeChat) cannot replace its bound phone, and is told how to set one", async () => {
    const p = phone();
    const row = await getDb().account.create({ data: { account: name(), nickname: "WeChat user", phone: p }, select: { id: true, account: true } });
    const b = new Browser(api.base, ip());
    b.cookies.set("zl_session", (await startSession(row.id)).token);
    const next = phone();
    await sendBindCode(b, next);
    const res = await bind(b, { phone: next, code: await lastCode(next), password: "anything1" });
    expect(res.body.status).toBe(status("phone_change_needs_password"));
    expect(res.body.description).toMatch(/Forgot password/);
    expect(await phoneOf(row.account)).toBe(p);
    // With a password set, the same change goes through.
    await getDb().account.update({ where: { id: row.id }, data: { passwordHash: await hashPassword("secret123") } });
    expect((await bind(b, { phone: next, code: await lastCode(next), password: "secret123" })).body.status).toBe(200);
  });

  it("binding codes keep the SMS limits: one a minute and ten a day per phone", async () => {
    const { b } = await registered();
    const p = phone();
    expect((await sendBindCode(b, p)).body.status).toBe(200);
    const again = await sendBindCode(b, p);
    expect(again.body.status).toBe(status("sms_too_frequent"));
    expect(again.body.description).toMatch(/\d+/);
    for (let i = 1; i < 10; i++) {
      await ageCodes(p);
      expect((await sendBindCode(b, p)).body.status).toBe(200);
    }
    await ageCodes(p);
    expect((await sendBindCode(b, p)).body.status).toBe(status("sms_daily_limit"));
    expect(await sentCount(p)).toBe(10);
  });
});
