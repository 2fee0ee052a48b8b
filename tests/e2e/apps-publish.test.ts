// Publishing an app in a real browser: a developer creates an H5 app from an agent on
// /create_app (the shared schema refuses a bad field in the browser first), it waits on /my_app
// under review, an administrator approves it on /admin/app_review, and it is then on the shelf,
// in the app centre (/app_store) and found by search (/search?q=). The phone-sized /my_app too.
// With APPS_SHOTS=<dir>, also writes screenshots of the apps pages (desktop and phone).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { clickWhenSettled, launchBrowser, newContext, toast } from "../helpers/browser";
import { makePng } from "../helpers/png";

let browser: Browser;
const baseURL = inject("webUrl");
const modelKey = inject("chatModelKey");
const run = crypto.randomBytes(3).toString("hex");
const shotsDir = process.env.APPS_SHOTS;

async function makeSignedIn(roles: string[], opts: { phone?: boolean; lang?: string } = {}): Promise<{ id: string; context: BrowserContext }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $2, $3::"Role"[], now())`, [
    id,
    `apps_${crypto.randomBytes(4).toString("hex")}`,
    roles,
  ]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang: opts.lang ?? "en", phone: opts.phone });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return { id, context };
}

/** The developer's agent with a published (live) version, as the agent builder leaves it. */
async function makeLiveAgent(ownerId: string, name: string) {
  const agentId = `e2eag${crypto.randomBytes(8).toString("hex")}`;
  await sql("INSERT INTO agent (id, owner_account_id, name, updated_at) VALUES ($1, $2, $3, now())", [agentId, ownerId, name]);
  const config = { name, introduction: "Answers travel questions", model_key: modelKey };
  await sql(
    "INSERT INTO agent_version (id, agent_id, version, state, config, published_at, updated_at) VALUES ($1, $2, '1.0.0', 'published', $3::jsonb, now(), now())",
    [`e2eav${crypto.randomBytes(8).toString("hex")}`, agentId, JSON.stringify(config)],
  );
  return agentId;
}

async function ensureCategory() {
  const rows = (await sql("SELECT id, names FROM app_category ORDER BY sort_order LIMIT 1")) as Array<{ id: number; names: Record<string, string> }>;
  if (rows.length) return rows[0].names.en;
  await sql("INSERT INTO app_category (slug, names, sort_order) VALUES ($1, $2::jsonb, $3)", [
    `e2e_${run}`,
    JSON.stringify({ zh_hans: "测试", zh_hant: "測試", en: `Tests ${run}`, pt: "Testes" }),
    900_000 + crypto.randomInt(90_000),
  ]);
  return `Tests ${run}`;
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

const fieldError = (page: Page, text: string) => page.locator(".ant-form-item-explain-error", { hasText: text });
async function shot(page: Page, name: string) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("publishing an H5 app", () => {
  it("create, refused then saved, under review, approved by an administrator, listed in the app centre and found by search", async () => {
    const dev = await makeSignedIn(["individual_developer"]);
    const agentName = `旅行助手${run}`;
    await makeLiveAgent(dev.id, agentName);
    const categoryName = await ensureCategory();
    const appName = `Voyage planner ${run}`;
    const keyword = `wanderlust${run}`;
    const page = await dev.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await open(page, "/my_app");
    await page.locator("[data-testid=my-app-empty]").waitFor();
    await page.locator("[data-testid=my-app-create]").click();
    await page.waitForURL(/\/create_app/);
    await page.waitForSelector("html[data-hydrated]");

    // The schema refuses in the browser with the server's messages: no name, no icon.
    await page.locator("[data-testid=app-save]").click();
    await fieldError(page, "An app name is required and has fewer than 30 characters").waitFor();
    await fieldError(page, "Upload an app icon").waitFor();

    await page.locator("[data-testid=app-name]").fill(appName);
    await page.locator("[data-testid=app-icon] input[type=file]").setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: makePng(300, 300, 80) });
    await page.waitForFunction(() => /^\/files\/images\/.+\.png$/.test(document.querySelector("[data-testid=app-icon] img")?.getAttribute("src") ?? ""));
    await page.locator("[data-testid=app-introduction]").fill("Plans trips: routes, hotels and what to see. 规划行程。");
    await page.locator("[data-testid=app-category]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: categoryName }).first().click();
    await page.locator("[data-testid=app-tags] input").fill(keyword);
    await page.keyboard.press("Enter");
    await page.locator("[data-testid=app-agent]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: agentName }).click();
    await page.locator("[data-testid=app-welcome] input").fill("Where shall we go?");
    await page.keyboard.press("Enter");
    await page.locator("input[data-testid=app-free-per-day], [data-testid=app-free-per-day] input").first().fill("5");
    await shot(page, "create-app-desktop");
    await page.locator("[data-testid=app-save]").click();

    await page.waitForURL(/\/my_app\?type=h5/);
    const row = page.locator(`[data-testid=my-app-row][data-name="${appName}"]`);
    await row.locator("[data-testid=app-state][data-state=under_review]").waitFor();
    const appId = await row.getAttribute("data-app-id");
    expect(appId).toBeTruthy();
    const stored = (await sql("SELECT state, free_per_day, tags, search_lexemes IS NOT NULL AS indexed FROM app WHERE id = $1", [appId])) as Array<
      Record<string, unknown>
    >;
    expect(stored[0]).toMatchObject({ state: "under_review", free_per_day: 5, tags: [keyword], indexed: true });

    // Not listed while under review.
    await open(page, `/search?q=${keyword}`);
    expect(await page.locator(`[data-testid=market-app-card][data-id="${appId}"]`).count()).toBe(0);

    // The administrator's queue.
    const admin = await makeSignedIn(["platform_admin"]);
    const adminPage = await admin.context.newPage();
    await open(adminPage, "/admin/app_review");
    const item = adminPage.locator(`[data-testid=app-review-item][data-name="${appName}"]`);
    await item.waitFor();
    await shot(adminPage, "app-review-desktop");
    await item.locator("[data-testid=app-review-approve]").click();
    await clickWhenSettled(adminPage, "[data-testid=app-confirm-ok]");
    await toast(adminPage, "Approved: the app is on the shelf");
    await item.waitFor({ state: "detached" });

    // The developer sees it on the shelf.
    await open(page, "/my_app?type=h5");
    await page.locator(`[data-testid=my-app-row][data-name="${appName}"] [data-testid=app-state][data-state=on_shelf]`).waitFor();
    await shot(page, "my-app-desktop");

    // Listed: the app centre (newest first: on CI the run's database also holds the integration
    // suites' listed apps, many of them more popular than one just approved) and search.
    await open(page, "/app_store?sort=newest");
    await page.locator(`[data-testid=market-app-card][data-id="${appId}"]`).waitFor();
    await open(page, `/search?q=${keyword}`);
    await page.locator(`[data-testid=market-app-card][data-id="${appId}"]`).waitFor();
    await open(page, `/search?q=${encodeURIComponent("Voyage")}`);
    await page.locator(`[data-testid=market-app-card][data-id="${appId}"]`).waitFor();

    expect(errors).toEqual([]);
  });

  it("/my_app at phone size shows the removed reason and the resubmit action", async () => {
    const dev = await makeSignedIn(["individual_developer"], { phone: true, lang: "zh_hans" });
    const agentId = await makeLiveAgent(dev.id, `手机助手${run}`);
    const appId = `e2eapp${crypto.randomBytes(8).toString("hex")}`;
    const categoryRows = (await sql("SELECT id FROM app_category ORDER BY sort_order LIMIT 1")) as Array<{ id: number }>;
    await sql(
      `INSERT INTO app (id, owner_account_id, type, state, removed_reason, name, icon_url, introduction, category_id, tags, input_modes, output_modes, updated_at)
       VALUES ($1, $2, 'h5', 'removed', '图标与名称不符', $3, '/files/images/none.png', '手机上的应用', $4, ARRAY['测试'], ARRAY['text'], ARRAY['text'], now())`,
      [appId, dev.id, `手机应用${run}`, categoryRows[0]?.id ?? null],
    );
    await sql("INSERT INTO app_agent (app_id, agent_id, sort_order) VALUES ($1, $2, 0)", [appId, agentId]);
    const page = await dev.context.newPage();
    await open(page, "/my_app");
    const row = page.locator(`[data-testid=my-app-row][data-app-id="${appId}"]`);
    await row.locator("[data-testid=my-app-removed-reason]", { hasText: "图标与名称不符" }).waitFor();
    await shot(page, "my-app-phone");
    await row.locator("[data-testid=my-app-submit]").click();
    await row.locator("[data-testid=app-state][data-state=under_review]").waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});
