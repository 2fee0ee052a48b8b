// Phones reach sign-in, and accounts can be recovered, in a real browser: the public site's headers
// offer log in and sign up at 375 px (the console once signed in); "/" opened on a phone goes to
// /mobi with its query, unless the visitor chose the desktop site; a new account lands on the
// workspace, binds a phone there, and later resets a forgotten password with it.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, recordToasts, screenshotsTo, toast } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const shot = screenshotsTo("ACCOUNTS_SHOTS");
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const SCREEN_375 = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const newPhone = () => `135${String(crypto.randomInt(0, 1e8)).padStart(8, "0")}`;

async function phoneContext(opts: { userAgent?: string } = {}) {
  const context = await browser.newContext({ ...SCREEN_375, baseURL, userAgent: opts.userAgent });
  await recordToasts(context);
  await context.addCookies([{ name: "lang", value: "en", url: baseURL }]);
  return context;
}

/** An account with a live session, made directly in the database (registration has its own test below). */
async function signIn(context: BrowserContext) {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $2, '{individual_developer}'::"Role"[], now())`, [
    id,
    `ph_${run}_${crypto.randomBytes(2).toString("hex")}`,
  ]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
}

async function readDevSms(phone: string) {
  const [row] = await sql("SELECT text FROM dev_sms_message WHERE phone = $1 ORDER BY id DESC LIMIT 1", [phone]);
  return /\d{6}/.exec(row.text)![0];
}

/** Fully inside the screen and visible. */
async function expectOnScreen(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.x, selector).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, selector).toBeLessThanOrEqual(375);
}

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("phones", () => {
  it("every public header offers log in and sign up at 375 px, and the console once signed in", async () => {
    const context = await phoneContext();
    const page = await context.newPage();
    for (const path of ["/mobi", "/mobi/case", "/mobi/index", "/", "/case"]) {
      await page.goto(path);
      await expectOnScreen(page, "[data-testid=nav-login]");
      await expectOnScreen(page, "[data-testid=nav-register]");
      expect(await scrollWidth(page), path).toBeLessThanOrEqual(375);
    }
    await page.goto("/mobi");
    await shot(page, "mobi-375");
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=nav-register]").click();
    await page.waitForURL((u) => u.pathname === "/mobi/registered");
    await page.goto("/mobi");
    await page.locator("[data-testid=nav-login]").click();
    await page.waitForURL((u) => u.pathname === "/mobi/login");

    await signIn(context);
    await page.goto("/mobi/case");
    await expectOnScreen(page, "[data-testid=viewer]");
    expect(await page.locator("[data-testid=nav-login]").count()).toBe(0);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=viewer]").click();
    await page.waitForURL((u) => u.pathname === "/mobi/workspace");
    await page.locator("[data-testid=checklist]").waitFor();
    await context.close();
  });

  it("/ on a phone goes to /mobi with its query; the desktop site, once chosen, stays until the phone site is asked for", async () => {
    const context = await phoneContext({ userAgent: IPHONE_UA });
    const page = await context.newPage();
    await page.goto("/?touser=u42&channel=poster");
    expect(new URL(page.url()).pathname).toBe("/mobi");
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ touser: "u42", channel: "poster" });
    await expectOnScreen(page, "[data-testid=nav-register]");

    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=phone-menu]").click();
    await page.locator("[data-testid=desktop-site]").click();
    await page.waitForURL((u) => u.pathname === "/" && u.searchParams.get("touser") === "u42" && !u.searchParams.has("desktop"));
    expect(await page.locator(".site-header").isVisible()).toBe(true);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await page.goto("/?touser=u42");
    expect(new URL(page.url()).pathname).toBe("/");

    await page.waitForSelector("html[data-hydrated]");
    await page.locator(".site-header__menu").click();
    await page.locator("[data-testid=phone-site]").click();
    await page.waitForURL((u) => u.pathname === "/mobi" && u.searchParams.get("touser") === "u42" && !u.searchParams.has("desktop"));
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/mobi");
    await context.close();

    // A computer's browser stays on the desktop site.
    const desktop = await newContext(browser, { baseURL, lang: "en" });
    const page2 = await desktop.newPage();
    await page2.goto("/?touser=u42");
    expect(new URL(page2.url()).pathname).toBe("/");
    await desktop.close();
  });
});

describe("accounts", () => {
  it("a new account lands on the workspace, binds a phone there, logs out and resets its password by SMS", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    const account = `rec_${run}`;
    await page.goto("/registered");
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=register] [data-testid=account]").fill(account);
    await page.locator("[data-testid=register] [data-testid=password]").fill("secret123");
    await page.locator("[data-testid=register] [data-testid=confirm]").fill("secret123");
    await page.locator("[data-testid=register] [data-testid=agreement]").check();
    await page.locator("[data-testid=register] [data-testid=submit]").click();
    await page.waitForURL((u) => u.pathname === "/workspace");

    // The workspace: a checklist with nothing done yet, each step linking to where it is done.
    expect(await page.locator("[data-testid=checklist-progress]").innerText()).toBe("0 of 5 done");
    for (const step of ["agent", "knowledge", "publish", "share", "earn"])
      expect(await page.locator(`[data-testid=step-${step}]`).getAttribute("data-done")).toBe("0");
    expect(await page.locator("[data-testid=step-agent-link]").getAttribute("href")).toBe("/agentDetail");
    expect(await page.locator("[data-testid=workspace-balance]").innerText()).toContain("100.00 Z");
    await shot(page, "workspace-desktop");

    // Binding is offered at once. A phone another account holds gets no code.
    const taken = newPhone();
    await sql(`INSERT INTO account (id, account, nickname, phone, roles, updated_at) VALUES ($1, $1, 'Holder', $2, '{}'::"Role"[], now())`, [
      `e2e${crypto.randomBytes(8).toString("hex")}`,
      taken,
    ]);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=phone-prompt-bind]").click();
    const form = page.locator("[data-testid=phone-bind-form]");
    await form.locator("[data-testid=phone]").fill(taken);
    await form.locator("[data-testid=send-code]").click();
    await toast(page, "This phone number belongs to another account");
    expect(await sql("SELECT 1 FROM dev_sms_message WHERE phone = $1", [taken])).toHaveLength(0);

    const phone = newPhone();
    await form.locator("[data-testid=phone]").fill(phone);
    await form.locator("[data-testid=send-code]").click();
    await form.getByText(/Resend in/).waitFor();
    await form.locator("[data-testid=sms-code]").fill(await readDevSms(phone));
    await form.locator("[data-testid=phone-bind-submit]").click();
    await toast(page, "Phone bound");
    await page.locator("[data-testid=phone-prompt]").waitFor({ state: "detached" });
    expect((await sql("SELECT phone FROM account WHERE account = $1", [account]))[0].phone).toBe(phone);

    await page.goto("/setting");
    expect(await page.locator("[data-testid=phone-state]").innerText()).toBe(`Bound to ${phone.slice(0, 3)}****${phone.slice(-4)}`);
    await shot(page, "setting-desktop");

    // Logged out, the password forgotten: the bound phone resets it.
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=account-menu]").click();
    await page.locator("[data-testid=logout]").click();
    await page.waitForURL((u) => u.pathname === "/login");
    await sql("UPDATE sms_code SET created_at = now() - interval '2 minutes' WHERE phone = $1", [phone]);
    await page.goto("/forgot_password");
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.locator("[data-testid=forgot-no-phone]").innerText()).toContain("No phone bound to your account?");
    const forgot = page.locator("[data-testid=forgot]");
    await forgot.locator("[data-testid=phone]").fill(phone);
    await forgot.locator("[data-testid=send-code]").click();
    await forgot.getByText(/Resend in/).waitFor();
    await forgot.locator("[data-testid=sms-code]").fill(await readDevSms(phone));
    await forgot.locator("[data-testid=password]").fill("fresh-pass-1");
    await forgot.locator("[data-testid=confirm]").fill("fresh-pass-1");
    await forgot.locator("[data-testid=submit]").click();
    await page.locator("[data-testid=to-login]").click();
    await page.waitForURL((u) => u.pathname === "/login");
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=password-login] [data-testid=account]").fill(account);
    await page.locator("[data-testid=password-login] [data-testid=password]").fill("fresh-pass-1");
    await page.locator("[data-testid=password-login] [data-testid=agreement]").check();
    await page.locator("[data-testid=password-login] [data-testid=submit]").click();
    await page.waitForURL((u) => u.pathname === "/workspace");
    // Bound now: the workspace no longer asks.
    await page.locator("[data-testid=checklist]").waitFor();
    expect(await page.locator("[data-testid=phone-prompt]").count()).toBe(0);
    await context.close();

    // The same pages at phone size, signed in as the same account.
    const phoneCtx = await phoneContext();
    const p = await phoneCtx.newPage();
    await p.goto("/mobi/login");
    await p.waitForSelector("html[data-hydrated]");
    await p.locator("[data-testid=password-login] [data-testid=account]").fill(phone);
    await p.locator("[data-testid=password-login] [data-testid=password]").fill("fresh-pass-1");
    await p.locator("[data-testid=password-login] [data-testid=agreement]").check();
    await p.locator("[data-testid=password-login] [data-testid=submit]").click();
    await p.waitForURL((u) => u.pathname === "/mobi/workspace");
    expect(await scrollWidth(p)).toBeLessThanOrEqual(375);
    await shot(p, "workspace-375");
    await p.goto("/mobi/setting");
    expect(await scrollWidth(p)).toBeLessThanOrEqual(375);
    await shot(p, "setting-375");
    await phoneCtx.close();
  });
});
