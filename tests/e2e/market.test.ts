// The market in Chromium: a visitor browses /app_store, filters by category, searches and
// opens an app's details (update log, developer); a signed-in user likes, collects, follows and
// comments, and sees the refusals for a second like and for following themself. Desktop and phone
// screenshots with MARKET_SHOTS=<dir>.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { launchBrowser, newContext, toast } from "../helpers/browser";
import { toTsvectorLiteral } from "../../server/knowledge/text-segmenter";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const cuid = () => `e2e${crypto.randomBytes(10).toString("hex")}`;
const SHOTS = process.env.MARKET_SHOTS;

async function makeAccount(nickname: string) {
  const id = cuid();
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $3, '{individual_developer}', now())`, [
    id,
    `mk_${crypto.randomBytes(4).toString("hex")}`,
    nickname,
  ]);
  return id;
}

async function signIn(accountId: string, lang = "en"): Promise<BrowserContext> {
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    accountId,
  ]);
  const context = await newContext(browser, { baseURL, lang });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return context;
}

async function makeCategory(en: string) {
  const rows = await sql(`INSERT INTO app_category (slug, names, sort_order) VALUES ($1, $2, $3) RETURNING id`, [
    `e2e_${cuid()}`,
    JSON.stringify({ zh_hans: en, zh_hant: en, en, pt: en }),
    700_000 + crypto.randomInt(200_000),
  ]);
  return rows[0].id;
}

/** A listed app with an agent whose two versions make the update log. */
async function makeApp(ownerId: string, categoryId: number, name: string, introduction: string, tags: string[]) {
  const appId = cuid();
  const agentId = cuid();
  await sql(`INSERT INTO agent (id, owner_account_id, name, updated_at) VALUES ($1, $2, 'Guide', now())`, [agentId, ownerId]);
  await sql(
    `INSERT INTO agent_version (id, agent_id, version, state, config, update_note, published_at, updated_at) VALUES
    ($1, $3, '1.0.0', 'upgraded', '{}', 'First release', now() - interval '2 days', now()), ($2, $3, '1.1.0', 'published', '{}', 'Answers with maps', now() - interval '1 day', now())`,
    [cuid(), cuid(), agentId],
  );
  const lexemes = toTsvectorLiteral([
    { text: name, weight: "A" },
    { text: tags.join(" "), weight: "B" },
    { text: introduction, weight: "C" },
  ]);
  await sql(
    `INSERT INTO app (id, owner_account_id, type, state, name, icon_url, introduction, category_id, tags, input_modes, output_modes, listed_at, search_lexemes, updated_at)
    VALUES ($1, $2, 'h5', 'on_shelf', $3, '', $4, $5, $6, '{text}', '{text}', now(), $7::tsvector, now())`,
    [appId, ownerId, name, introduction, categoryId, tags, lexemes],
  );
  await sql(`INSERT INTO app_agent (app_id, agent_id, sort_order) VALUES ($1, $2, 0)`, [appId, agentId]);
  return appId;
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

let developerId: string;
let lanternId: string;
let kiteId: string;
let catA: number;
let catB: number;

beforeAll(async () => {
  browser = await launchBrowser();
  developerId = await makeAccount(`Lantern maker ${run}`);
  catA = await makeCategory(`Lights ${run}`);
  catB = await makeCategory(`Kites ${run}`);
  lanternId = await makeApp(developerId, catA, `Lantern guide ${run}`, "Explains how paper lanterns are folded and lit", ["craft"]);
  kiteId = await makeApp(developerId, catB, `Kite coach ${run}`, "Teaches kite flying on windy beaches", ["outdoor"]);
  // Each web process keeps the market's header (categories, carousel) up to 5 s: wait until the
  // new categories are surely in it, as a visitor would see them a few seconds after they are made.
  await new Promise((r) => setTimeout(r, 5_500));
});
afterAll(() => browser?.close());

describe("the market", () => {
  it("a visitor browses the app centre, filters by category, searches and opens the details", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    await open(page, `/app_store?category=${catA}`);
    await page.locator(`[data-testid=market-app-card][data-id="${lanternId}"]`).waitFor();
    expect(await page.locator(`[data-testid=market-app-card][data-id="${kiteId}"]`).count()).toBe(0);
    await shot(page, "app-store-desktop");

    // Another category's tab shows its apps.
    await page.locator(`[data-testid=category-tab][data-name="Kites ${run}"]`).click();
    await page.waitForURL(new RegExp(`category=${catB}`));
    await page.locator(`[data-testid=market-app-card][data-id="${kiteId}"]`).waitFor();
    expect(await page.locator(`[data-testid=market-app-card][data-id="${lanternId}"]`).count()).toBe(0);

    // Search by words of the introduction.
    await page.locator("[data-testid=market-search] input").fill("paper lanterns");
    await page.locator("[data-testid=market-search] input").press("Enter");
    await page.waitForURL(/\/search\?q=paper/);
    const card = page.locator(`[data-testid=market-app-card][data-id="${lanternId}"]`);
    await card.waitFor();
    await shot(page, "search-desktop");
    await card.click();
    await page.waitForURL(new RegExp(`/detail\\?id=${lanternId}`));
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.locator("[data-testid=detail-name]").textContent()).toBe(`Lantern guide ${run}`);
    const log = page.locator("[data-testid=update-log]");
    expect(await log.textContent()).toContain("v1.1.0");
    expect(await log.textContent()).toContain("Answers with maps");
    expect(await page.locator("[data-testid=developer-link]").textContent()).toBe(`Lantern maker ${run}`);
    await shot(page, "detail-visitor-desktop");
    await context.close();
  });

  it("a signed-in user likes, collects, follows and comments, and sees the refusals", async () => {
    const userId = await makeAccount(`Fan ${run}`);
    const context = await signIn(userId);
    const page = await context.newPage();
    await open(page, `/detail?id=${lanternId}`);

    await page.locator("[data-testid=like-button]").click();
    await expect.poll(() => page.locator("[data-testid=like-count]").textContent()).toBe("1");
    // A second like is refused with the platform's message, and nothing changes.
    await page.locator("[data-testid=like-button]").click();
    await toast(page, "Already liked");
    expect(await page.locator("[data-testid=like-count]").textContent()).toBe("1");
    expect((await sql(`SELECT count(*)::int AS n FROM market_reaction WHERE target_id = $1 AND kind = 'like'`, [lanternId]))[0].n).toBe(1);

    await page.locator("[data-testid=collect-button]").click();
    await expect.poll(() => page.locator("[data-testid=collect-count]").textContent()).toBe("1");
    await page.locator("[data-testid=collect-button]").click();
    await toast(page, "Already collected");

    await page.locator("[data-testid=follow-button]").click();
    await page.locator("[data-testid=unfollow-button]").waitFor();
    await expect.poll(() => page.locator("[data-testid=follower-count]").textContent()).toBe("1");

    const text = `Folded three lanterns with this ${run}`;
    await page.locator("[data-testid=comment-input]").fill(text);
    await page.locator("[data-testid=comment-submit]").click();
    await page.locator("[data-testid=comment-text]", { hasText: text }).waitFor();
    // A comment over 500 words is refused with its message.
    await page.locator("[data-testid=comment-input]").fill("字".repeat(501));
    expect(await page.locator("[data-testid=word-count]").textContent()).toContain("501");
    await page.locator("[data-testid=comment-submit]").click();
    await toast(page, "A comment is at most 500 words");
    await shot(page, "detail-signed-in-desktop");

    const counts = (await sql(`SELECT like_count, collect_count, comment_count FROM app WHERE id = $1`, [lanternId]))[0];
    expect(counts).toEqual({ like_count: 1, collect_count: 1, comment_count: 1 });

    // Following yourself is refused on your own page.
    await open(page, `/customer?id=${userId}`);
    await page.locator("[data-testid=follow-button]").click();
    await toast(page, "You cannot follow yourself");
    expect((await sql(`SELECT count(*)::int AS n FROM follow WHERE follower_id = $1 AND followee_id = $1`, [userId]))[0].n).toBe(0);

    // The developer's page lists the app and counts the new follower.
    await open(page, `/customer?id=${developerId}`);
    await page.locator(`[data-testid=market-app-card][data-id="${lanternId}"]`).waitFor();
    expect(await page.locator("[data-testid=follower-count]").textContent()).toBe("1");
    await shot(page, "customer-desktop");
    await context.close();
  });

  it("fits a phone: the app centre and the details", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL });
    await context.addCookies([{ name: "lang", value: "en", url: baseURL }]);
    const page = await context.newPage();
    await open(page, `/mobi/app_store?category=${catA}`);
    await page.locator(`[data-testid=market-app-card][data-id="${lanternId}"]`).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, "app-store-phone");
    await open(page, `/mobi/detail?id=${lanternId}`);
    await page.locator("[data-testid=developer-card]").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    await shot(page, "detail-phone");
    await context.close();
  });
});
