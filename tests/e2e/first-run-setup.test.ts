// First-run setup in Chromium, on a platform of its own: a fresh database (the run's shared one
// has administrators made by other files) served by two web instances, as a deployment with
// several would. The operator gets the one-time code from `npm run admin -- setup-code`, creates
// the first administrator on /setup at one instance, and lands signed in; the other instance then
// shows the Administration menu with its counts, and both have closed /setup.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "../../server/db/migrate";
import { launchBrowser, newContext, screenshotsTo } from "../helpers/browser";
import { createFreshDatabase } from "../helpers/fresh-database";
import { startWeb, type TWebProcess } from "../helpers/platform";

const ROOT = path.resolve(import.meta.dirname, "../..");
const shot = screenshotsTo("SETUP_SHOTS", { fullPage: false });
const PASSWORD = "Setup-Admin-26";
let fresh: Awaited<ReturnType<typeof createFreshDatabase>>;
let dataDir = "";
let web: TWebProcess;
let web2: TWebProcess;
let browser: Browser;

async function sql(text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: fresh.url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** The operator's command against this platform's database. */
async function setupCode() {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", "setup-code"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: fresh.url, LOG_LEVEL: "warn" },
    timeout: 120_000,
  });
  return stdout.trim();
}

async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const el = document.querySelector("[data-testid=submit]");
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  });
}

async function fillSetup(page: Page, values: { code: string; account: string; password: string }) {
  await page.fill("[data-testid=setup-code]", values.code);
  await page.fill("[data-testid=account]", values.account);
  await page.fill("[data-testid=nickname]", "Operator");
  await page.fill("[data-testid=password]", values.password);
  await page.fill("[data-testid=confirm]", values.password);
}

beforeAll(async () => {
  fresh = await createFreshDatabase();
  await applyMigrations(fresh.url);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-setup-e2e-"));
  const env = { DATABASE_URL: fresh.url, DATA_DIR: dataDir, APP_SECRET: "setup-e2e-app-secret-0123456789abcdefghij", SMS_PROVIDER: "dev", ALLOW_DEV_SMS: "1" };
  [web, web2] = await Promise.all([startWeb(env), startWeb(env)]);
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([web?.stop(), web2?.stop()]);
  await fresh?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("first-run setup", () => {
  it("creates the first administrator with the one-time code, signs them in, and closes", async () => {
    const context = await newContext(browser, { baseURL: web.url, lang: "en" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    // The login page and the public home point to /setup while there is no administrator.
    await page.goto("/login");
    await expect(page.locator("[data-testid=setup-notice]").textContent()).resolves.toContain("no administrator yet");
    await shot(page, "login-notice-desktop");
    await page.goto("/");
    await shot(page, "home-notice-desktop");
    await page.locator("[data-testid=setup-notice] a").click();
    await page.waitForURL(/\/setup$/);
    await hydrated(page);
    await shot(page, "setup-desktop");

    // On a phone, at its path and its /mobi twin: nothing scrolls sideways at 375 px.
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL: web.url });
    await phone.addCookies([{ name: "lang", value: "en", url: web.url }]);
    const phonePage = await phone.newPage();
    for (const at of ["/setup", "/mobi/setup"]) {
      await phonePage.goto(at);
      await hydrated(phonePage);
      expect(await phonePage.evaluate(() => document.documentElement.scrollWidth), at).toBeLessThanOrEqual(375);
    }
    await shot(phonePage, "setup-phone");
    await phone.close();

    const code = await setupCode();
    expect(code).toMatch(/^[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}$/);
    const wrong = code === "AAAA-AAAA" ? "BBBB-BBBB" : "AAAA-AAAA";

    // A wrong code: the server's refusal, and no account.
    await fillSetup(page, { code: wrong, account: "first_ops", password: PASSWORD });
    await page.click("[data-testid=submit]");
    await expect(page.locator("[data-testid=form-error]").textContent()).resolves.toContain("The setup code is wrong");
    await shot(page, "setup-desktop-wrong-code");
    expect(await sql("SELECT account FROM account")).toEqual([]);

    // A password that is not strict: refused on its field, with the server's own rule.
    await page.fill("[data-testid=setup-code]", code);
    await page.fill("[data-testid=password]", "secret123");
    await page.fill("[data-testid=confirm]", "secret123");
    await page.click("[data-testid=submit]");
    await expect(page.locator(".ant-form-item-explain-error").first().textContent()).resolves.toBe(
      "Use 10-16 characters with upper and lower case letters, a digit and a symbol",
    );
    // Changing the form took the wrong code's message away.
    expect(await page.locator("[data-testid=form-error]").count()).toBe(0);
    if (process.env.SETUP_SHOTS) await page.waitForTimeout(500); // the field message's entrance animation
    await shot(page, "setup-desktop-weak-password");
    expect(await sql("SELECT account FROM account")).toEqual([]);

    await page.fill("[data-testid=password]", PASSWORD);
    await page.fill("[data-testid=confirm]", PASSWORD);
    await page.click("[data-testid=submit]");
    await page.waitForURL(/\/workspace/);
    expect(await sql("SELECT account, nickname, roles::text[] AS roles FROM account")).toEqual([
      { account: "first_ops", nickname: "Operator", roles: ["platform_admin", "individual_developer"] },
    ]);

    // The session is good on the other instance too: an administration page opens, and the menu has
    // the Administration group with what waits (a certification is sent in meanwhile).
    const [{ id: adminId }] = await sql("SELECT id FROM account WHERE account = 'first_ops'");
    await sql(
      `INSERT INTO certification (id, account_id, real_name, id_number_encrypted, id_number_hint, avatar_photo_url, id_front_url, id_back_url, introduction)
       VALUES ($1, $2, 'Li Lei', 'sealed', '1234', '/a.png', '/f.png', '/b.png', 'A developer of agents for shops')`,
      [`cert${crypto.randomBytes(6).toString("hex")}`, adminId],
    );
    await page.goto(`${web2.url}/admin/certifications`);
    await page.waitForSelector("[data-testid=admin-menu-count-certifications]");
    const sider = page.locator(".console__sider");
    await expect(sider.textContent()).resolves.toContain("Administration");
    for (const label of [
      "Agent review",
      "App review",
      "Certification review",
      "Payments",
      "Withdrawals",
      "Model channels",
      "Sensitive words",
      "SMS outbox (dev)",
    ])
      await expect(sider.locator(`text=${label}`).count()).resolves.toBeGreaterThan(0);
    await expect(page.locator("[data-testid=admin-menu-count-certifications]").textContent()).resolves.toBe("1");
    await expect(page.locator("[data-testid=admin-menu-total]").textContent()).resolves.toBe("1");
    await page.locator("[data-testid=admin-menu-count-certifications]").scrollIntoViewIfNeeded();
    await shot(page, "admin-menu-desktop");

    // On a phone the same group is in the console's drawer.
    const phoneAdmin = await browser.newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      baseURL: web2.url,
    });
    await phoneAdmin.addCookies(await context.cookies());
    const adminPhone = await phoneAdmin.newPage();
    await adminPhone.goto("/mobi/admin/certifications");
    await adminPhone.waitForFunction(() =>
      Object.keys(document.querySelector("[data-testid=console-menu-button]") ?? {}).some((k) => k.startsWith("__reactProps")),
    );
    await adminPhone.click("[data-testid=console-menu-button]");
    const drawerCount = adminPhone.locator("[data-testid=console-drawer-menu] [data-testid=admin-menu-count-certifications]");
    await drawerCount.waitFor();
    await drawerCount.scrollIntoViewIfNeeded();
    if (process.env.SETUP_SHOTS) await adminPhone.waitForTimeout(400); // the drawer's slide
    await shot(adminPhone, "admin-menu-phone");
    await phoneAdmin.close();

    // Setup is closed: the page is not found on both instances, the notice is gone, a second POST is refused.
    expect((await page.goto(`${web.url}/setup`))!.status()).toBe(404);
    await expect.poll(async () => (await fetch(`${web2.url}/setup`)).status, { timeout: 15_000 }).toBe(404);
    const visitor = await newContext(browser, { baseURL: web.url, lang: "en" });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto("/login");
    await visitorPage.waitForSelector("[data-testid=password-login]");
    expect(await visitorPage.locator("[data-testid=setup-notice]").count()).toBe(0);
    await visitor.close();
    const again = await page.evaluate(async (c) => {
      const csrf = decodeURIComponent(/(?:^|;\s*)zl_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? "");
      const res = await fetch("/api/v1/setup", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": csrf },
        body: JSON.stringify({ code: c, account: "second_ops", password: "Second-Ops-26", confirm: "Second-Ops-26" }),
      });
      return (await res.json()).status;
    }, code);
    expect(again).toBe(421101);
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
