// Accounts in a real browser: register with an invitation code, log out, log in by password, by
// SMS code (read from the development provider's outbox) and by WeChat QR (against a loopback
// WeChat), reset a forgotten password, and the agreement that must be accepted first. Every way in
// lands on the workspace, unless the login was asked for by another page.
import crypto from "node:crypto";
import { sql } from "../helpers/e2e-db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext } from "../helpers/browser";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");

async function fillRegister(page: Page, account: string, password: string, invite?: string) {
  await page.locator("[data-testid=register] [data-testid=account]").fill(account);
  await page.locator("[data-testid=register] [data-testid=password]").fill(password);
  await page.locator("[data-testid=register] [data-testid=confirm]").fill(password);
  if (invite) await page.locator("[data-testid=invitation-code]").fill(invite);
  await page.locator("[data-testid=register] [data-testid=agreement]").check();
}

// The development provider's outbox is an administrators' page; a visitor reads the code the way a
// developer would, from what the provider kept.
async function readDevSms(_page: Page, phone: string) {
  const [row] = await sql("SELECT text FROM dev_sms_message WHERE phone = $1 ORDER BY id DESC LIMIT 1", [phone]);
  return /\d{6}/.exec(row.text)![0];
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("accounts", () => {
  it("registers with an invitation code, logs out, and logs back in with the password", async () => {
    const invite = `E2E${run}`.toUpperCase();
    await sql("INSERT INTO invitation_code (code, max_uses) VALUES ($1, 1)", [invite]);
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    await page.goto(`/registered?invite=${invite}`);
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.locator("[data-testid=invitation-code]").inputValue()).toBe(invite);
    const account = `reg_${run}`;
    await fillRegister(page, account, "secret123");
    await page.locator("[data-testid=register] [data-testid=submit]").click();
    // Signing up lands on the workspace.
    await page.waitForURL(/\/workspace$/);
    await page.goto("/setting");
    expect(await page.locator("[data-testid=nickname]").inputValue()).toBe(account);
    expect((await sql("SELECT uses FROM invitation_code WHERE code = $1", [invite]))[0].uses).toBe(1);

    // The menu opens once the page has hydrated: a click on the server-rendered button does nothing.
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=account-menu]").click();
    await page.locator("[data-testid=logout]").click();
    await page.waitForURL(/\/login/);
    await page.goto("/setting");
    await page.waitForURL(/\/login\?redirect=%2Fsetting/);
    await page.waitForSelector("html[data-hydrated]");

    // The page that sent the user to log in wins over the workspace.
    await page.locator("[data-testid=password-login] [data-testid=account]").fill(account);
    await page.locator("[data-testid=password-login] [data-testid=password]").fill("secret123");
    await page.locator("[data-testid=password-login] [data-testid=agreement]").check();
    await page.locator("[data-testid=password-login] [data-testid=submit]").click();
    await page.waitForURL(/\/setting$/);
    await context.close();
  });

  it("will not log in until the agreement is accepted", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    await page.goto("/login");
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=password-login] [data-testid=account]").fill("zelin_nobody");
    await page.locator("[data-testid=password-login] [data-testid=password]").fill("secret123");
    const posted: string[] = [];
    page.on("request", (r) => r.url().includes("/api/v1/auth/login") && posted.push(r.url()));
    await page.locator("[data-testid=password-login] [data-testid=submit]").click();
    await page.getByText("Please read and accept the user agreement and privacy policy").waitFor();
    expect(posted).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });

  it("logs in with an SMS code, and resets a forgotten password with one", async () => {
    const account = `sms_${run}`;
    const phone = `137${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}`;
    const context = await newContext(browser, { baseURL, lang: "zh_hans" });
    const page = await context.newPage();
    await page.goto("/registered");
    await page.waitForSelector("html[data-hydrated]");
    await fillRegister(page, account, "secret123");
    await page.locator("[data-testid=register] [data-testid=submit]").click();
    await page.waitForURL(/\/workspace$/);
    await sql("UPDATE account SET phone = $1 WHERE account = $2", [phone, account]);
    await context.clearCookies({ name: "zl_session" });

    await page.goto("/login");
    await page.waitForSelector("html[data-hydrated]");
    await page.getByRole("tab", { name: "验证码登录" }).click();
    const form = page.locator("[data-testid=sms-login]");
    await form.locator("[data-testid=phone]").fill(phone);
    await form.locator("[data-testid=send-code]").click();
    await form.getByText(/秒后重发/).waitFor();
    await form.locator("[data-testid=sms-code]").fill(await readDevSms(page, phone));
    await form.locator("[data-testid=agreement]").check();
    await form.locator("[data-testid=submit]").click();
    await page.waitForURL(/\/workspace$/);

    await context.clearCookies({ name: "zl_session" });
    await sql("UPDATE sms_code SET created_at = now() - interval '2 minutes' WHERE phone = $1", [phone]);
    await page.goto("/forgot_password");
    await page.waitForSelector("html[data-hydrated]");
    const forgot = page.locator("[data-testid=forgot]");
    await forgot.locator("[data-testid=phone]").fill(phone);
    await forgot.locator("[data-testid=send-code]").click();
    await forgot.getByText(/秒后重发/).waitFor();
    await forgot.locator("[data-testid=sms-code]").fill(await readDevSms(page, phone));
    await forgot.locator("[data-testid=password]").fill("brand-new-1");
    await forgot.locator("[data-testid=confirm]").fill("brand-new-1");
    await forgot.locator("[data-testid=submit]").click();
    await page.locator("[data-testid=to-login]").click();
    await page.waitForURL(/\/login/);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=password-login] [data-testid=account]").fill(account);
    await page.locator("[data-testid=password-login] [data-testid=password]").fill("brand-new-1");
    await page.locator("[data-testid=password-login] [data-testid=agreement]").check();
    await page.locator("[data-testid=password-login] [data-testid=submit]").click();
    await page.waitForURL(/\/workspace$/);
    await context.close();
  });

  it("logs in by WeChat QR: scan, confirm on the phone, and land signed in", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    await page.goto("/login");
    await page.waitForSelector("html[data-hydrated]");
    await page.getByRole("tab", { name: "WeChat" }).click();
    await page.locator("[data-testid=wechat-login]").click();
    await page.waitForSelector("#confirm");
    await page.locator("#confirm").click();
    await page.waitForURL(/\/workspace$/);
    await page.goto("/setting");
    expect(await page.locator("[data-testid=nickname]").inputValue()).toBe("微信用户");
    await context.close();
  });
});
