// The market on a fresh install, in Chromium: `npm start`'s supervisor on the embedded defaults (a
// new data folder, no DATABASE_URL) seeds the demo market, and a visitor finds it from the public
// site's header and footer, on a desktop and on a 375 px phone: carousel, categories, apps, agents
// and the four ranking lists, with nothing scrolling sideways; a demo app answers on the offline
// model; the console's menu leads there too. MARKET_FIRST_SHOTS=<dir> saves the screenshots.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newContext, screenshotsTo } from "../helpers/browser";
import { freePort } from "../helpers/platform";
import { DEMO_ACCOUNT } from "../../prisma/seed/demo-data";
import { DEMO_ITEMS } from "../../prisma/seed/demo-market-content";
import { RANKING_LISTS } from "../../server/market/market.schema";

const ROOT = path.resolve(import.meta.dirname, "../..");
const shot = screenshotsTo("MARKET_FIRST_SHOTS");
let browser: Browser;
let platform: ChildProcess;
let baseURL: string;
let dataDir: string;
let output = "";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-first-start-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "production" };
  // A fresh install knows nothing of the test run's database, queue or settings.
  for (const k of ["DATABASE_URL", "REDIS_URL", "ZELIN_EMBEDDED_DB", "LICENCE_FILE", "APP_SECRET", "APP_REVIEW_POLICY", "ADMIN_API_TOKEN"]) delete env[k];
  // The pages were built by the run's global setup: the supervisor is what `npm start` runs next.
  platform = spawn(process.execPath, ["--import", "tsx", "server/supervisor.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  platform.stdout!.on("data", (d) => (output += d));
  platform.stderr!.on("data", (d) => (output += d));
  baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    const health = await fetch(`${baseURL}/healthz`).then(
      (r) => (r.ok ? (r.json() as Promise<{ processes: Record<string, string> }>) : null),
      () => null,
    );
    if (health?.processes.worker === "up") break;
    if (Date.now() > deadline || platform.exitCode !== null) throw new Error(`the fresh install did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  browser = await launchBrowser();
}, 200_000);

afterAll(async () => {
  await browser?.close();
  if (platform && platform.exitCode === null) {
    platform.kill("SIGTERM");
    await new Promise((r) => platform.once("exit", r));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

async function phone(): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** What a market home must show: slides, every ranking list with rows, and cards of apps and agents. */
async function expectLivelyHome(page: Page) {
  await page.locator("[data-testid=market-home]").waitFor();
  expect(await page.locator("[data-testid=carousel-slide]").count()).toBeGreaterThanOrEqual(3);
  for (const list of RANKING_LISTS) expect(await page.locator(`[data-testid=ranking-${list}] li`).count(), list).toBeGreaterThan(0);
  expect(await page.locator("[data-testid=market-app-card]").count()).toBeGreaterThanOrEqual(6);
  expect(await page.locator("[data-testid=market-agent-card]").count()).toBeGreaterThanOrEqual(6);
}

describe("the market of a fresh install", () => {
  it("is reached from the public site's header and footer on a desktop, and looks alive", async () => {
    const context = await newContext(browser, { baseURL });
    const page = await context.newPage();
    await open(page, "/");
    await shot(page, "home-desktop");
    await page.locator("[data-testid=site-nav-index]").click();
    await page.waitForURL(/\/index$/);
    await expectLivelyHome(page);
    await page.waitForTimeout(600);
    await shot(page, "index-desktop");

    await open(page, "/");
    await page.locator("[data-testid=footer-app-store]").click();
    await page.waitForURL(/\/app_store/);
    await page.locator("[data-testid=app-store]").waitFor();
    expect(await page.locator("[data-testid=category-tab]").count()).toBeGreaterThanOrEqual(7);
    expect(await page.locator("[data-testid=market-app-card]").count()).toBeGreaterThanOrEqual(DEMO_ITEMS.length + 1);
    await shot(page, "app-store-desktop");
    // A category tab shows that category's apps: the image category holds the drawing-prompt app.
    await page.locator("[data-testid=category-tab][data-name=图像创作]").click();
    await page.waitForURL(/category=\d+/);
    await expect
      .poll(() => page.locator("[data-testid=market-app-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-name"))))
      .toEqual(["AI 绘画提示词助手"]);

    await open(page, "/");
    await page.locator("[data-testid=footer-agent-market]").click();
    await page.waitForURL(/\/intelligent_stores$/);
    await page.locator("[data-testid=agent-market]").waitFor();
    expect(await page.locator("[data-testid=market-agent-card]").count()).toBeGreaterThanOrEqual(DEMO_ITEMS.length + 1);
    for (const list of ["language_agents", "image_agents"]) expect(await page.locator(`[data-testid=ranking-${list}] li`).count()).toBeGreaterThan(0);
    await page.waitForTimeout(600);
    await shot(page, "intelligent-stores-desktop");
    await context.close();
  });

  it("is reached from the phone header, and nothing scrolls sideways at 375 px", async () => {
    const context = await phone();
    const page = await context.newPage();
    await open(page, "/mobi");
    await page.locator("[data-testid=phone-market]").click();
    await page.waitForURL(/\/mobi\/index$/);
    await expectLivelyHome(page);
    expect(await sideways(page)).toBeLessThanOrEqual(375);
    await page.waitForTimeout(600);
    await shot(page, "index-phone");

    // The drawer's menu lists the market too.
    await open(page, "/mobi");
    await page.locator("[data-testid=phone-menu]").click();
    await page.locator("[data-testid=phone-nav-index]").click();
    await page.waitForURL(/\/mobi\/index$/);

    for (const [url, testid, name] of [
      ["/mobi/app_store", "app-store", "app-store-phone"],
      ["/mobi/intelligent_stores", "agent-market", "intelligent-stores-phone"],
    ] as const) {
      await open(page, url);
      await page.locator(`[data-testid=${testid}]`).waitFor();
      expect(await page.locator("[data-testid=carousel-slide]").count()).toBeGreaterThanOrEqual(3);
      expect(await sideways(page), url).toBeLessThanOrEqual(375);
      await page.waitForTimeout(600);
      await shot(page, name);
    }
    expect(await page.locator("[data-testid=market-agent-card]").count()).toBeGreaterThanOrEqual(DEMO_ITEMS.length);
    await context.close();
  });

  it("lets a visitor try a demo app, answered from its agent's own Q&A on the offline model", async () => {
    const context = await phone();
    const page = await context.newPage();
    await open(page, "/mobi/app_store");
    const card = page.locator("[data-testid=market-app-card][data-name=周报小秘书]");
    const appId = await card.getAttribute("data-id");
    await open(page, `/mobi/dialogue?app=${appId}`);
    await page.locator("[data-testid=h5-chip]", { hasText: "周报怎么写？" }).click();
    await expect.poll(() => page.locator("[data-testid=h5-answer]").last().textContent(), { timeout: 20_000 }).toContain("按四段来写");
    await shot(page, "demo-app-phone");
    await context.close();
  });

  it("is in the console's menu", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    await open(page, "/login");
    const form = page.locator("[data-testid=password-login]");
    await form.locator("[data-testid=account]").fill(DEMO_ACCOUNT.account);
    await form.locator("[data-testid=password]").fill(DEMO_ACCOUNT.password);
    await form.locator("[data-testid=agreement]").check();
    await form.locator("[data-testid=submit]").click();
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));
    await open(page, "/my_app");
    await page.locator(".console__sider .ant-menu-item", { hasText: "Market home" }).click();
    await page.waitForURL(/\/index$/);
    await page.locator("[data-testid=market-home]").waitFor();
    await context.close();
  });
});
