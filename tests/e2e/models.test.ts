// The model registry and channels in a real browser: an administrator adds a model and a
// channel pointing at a loopback fake upstream, tests it, sees a banned key take the channel out
// with the reason, and is refused deleting an enabled channel; a weight of 101 is refused as
// typed. An image model is priced per picture and served by a Kling channel, whose key rule and test
// button are Kling's own. Accounts see the catalogue and, by edition, their own keys or the upgrade hint.
// With SCREENSHOT_DIR set, the pages are also saved at desktop and phone size in zh_hans and en.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { startFakeKling } from "../fakes/fake-kling";
import { startFakeOpenai } from "../fakes/fake-openai";

let browser: Browser;
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
let kling: Awaited<ReturnType<typeof startFakeKling>>;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const SHOTS = process.env.SCREENSHOT_DIR;

/** An account with a live session, made directly in the database (the login pages have their own tests). */
async function makeSignedIn(roles: string[], opts: { lang?: string; phone?: boolean; edition?: string } = {}): Promise<BrowserContext & { accountId: string }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  const edition = opts.edition ?? "basic";
  const expires = edition === "basic" ? null : new Date(Date.now() + 30 * 86_400_000);
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, updated_at) VALUES ($1, $2, $2, $3::"Role"[], $4::"Edition", $5, now())`,
    [id, `m${run}${crypto.randomBytes(3).toString("hex")}`, roles, edition, expires],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang: opts.lang ?? "en", phone: opts.phone });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return Object.assign(context, { accountId: id });
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

const row = (page: Page, name: string) => page.locator(`[data-testid=channel-row][data-name="${name}"]`);

beforeAll(async () => {
  browser = await launchBrowser();
  fake = await startFakeOpenai();
  kling = await startFakeKling();
});
afterAll(async () => {
  await browser?.close();
  await fake?.close();
  await kling?.close();
});

/** Picks an option of an antd select by its label. */
async function choose(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`).click();
}

describe("model registry and channels", () => {
  it("an administrator adds a model and a channel, tests it, and sees a banned key disable it", async () => {
    const admin = await makeSignedIn(["platform_admin"]);
    const page = await admin.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const modelKey = `e2e-model-${run}`;

    // A model, with validation as you type.
    await open(page, "/model");
    await page.getByTestId("model-add").click();
    await page.getByTestId("model-key").fill(modelKey);
    await page.getByTestId("model-display-name").fill("这是一个很长的模型名");
    await page.getByText("A model name is at most 8 characters (two Latin letters count as one)").waitFor();
    await page.getByTestId("model-display-name").fill("测试模型");
    await page.getByTestId("model-input-price").fill("0.002");
    await page.getByTestId("model-output-price").fill("0.006");
    await page.getByTestId("model-supports-tools").check();
    await page.getByTestId("model-save").click();
    const modelRow = page.locator(`[data-testid=model-row][data-key="${modelKey}"]`);
    await modelRow.waitFor();
    expect(await modelRow.innerText()).toContain("测试模型");
    expect(await modelRow.innerText()).toContain("0.002");
    // The type filter: "Reasoning" hides a text model, "Text" shows it.
    await page.getByTestId("model-filter-13").click();
    await modelRow.waitFor({ state: "detached" });
    await page.getByTestId("model-filter-2").click();
    await modelRow.waitFor();
    await page.waitForURL(/type=2/);

    // A channel at the loopback fake (platform channels are the administrators' own configuration).
    const name = `e2e channel ${run}`;
    const key = `sk-e2e-models-${run}`;
    await open(page, "/modelProducer");
    await page.getByTestId("channel-routing").waitFor();
    await page.getByTestId("channel-add").click();
    await page.getByTestId("channel-name").fill(name);
    await page.getByTestId("channel-base-url").fill(fake.base);
    await page.getByTestId("channel-key").fill(key);
    await page.locator("[data-testid=channel-models] input").fill(modelKey);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Escape");
    await page.getByTestId("channel-weight").fill("101");
    await page.getByText("A weight is a whole number from 1 to 100").waitFor();
    await page.getByTestId("channel-weight").fill("5");
    await page.getByText("A weight is a whole number from 1 to 100").waitFor({ state: "detached" });
    await page.getByTestId("channel-priority").fill("7");
    await page.getByTestId("channel-save").click();
    await row(page, name).waitFor();
    expect(await row(page, name).locator("[data-testid=channel-state]").getAttribute("data-state")).toBe("enabled");
    expect(await row(page, name).innerText()).toContain(key.slice(-4));
    // Its row sits in the tier of its priority (other tests' channels may hold higher tiers).
    await page.locator("[data-testid=channel-tier][data-priority='7']").locator(`[data-testid=channel-row][data-name="${name}"]`).waitFor();

    // Test: it answers, and the latency is shown.
    await row(page, name).getByTestId("channel-test").click();
    await page.getByText(/The channel answered in \d+ ms/).waitFor();
    await row(page, name).getByTestId("channel-test-result").waitFor();
    expect(fake.requestsFor(key)).toBe(1);

    // Deleting an enabled channel is refused.
    await row(page, name).getByTestId("channel-delete").click();
    await page.getByTestId("channel-delete-ok").click();
    await page.getByText("The channel is in use and cannot be deleted").waitFor();
    await row(page, name).waitFor();

    // The provider bans the key: the next test fails and takes the channel out, with the reason.
    fake.setBehaviour(key, { fail: "403_banned" });
    await row(page, name).getByTestId("channel-test").click();
    await page
      .getByText(/Channel test failed/)
      .first()
      .waitFor();
    await row(page, name).locator("[data-testid=channel-state][data-state=disabled_auto]").waitFor();
    expect(await row(page, name).getByTestId("channel-disabled-reason").innerText()).toBe("The key was banned by the model provider");
    await open(page, "/modelProducer");
    expect(await row(page, name).getByTestId("channel-disabled-reason").innerText()).toBe("The key was banned by the model provider");
    expect(errors).toEqual([]);
    await admin.close();
  });

  it("an administrator adds an image model priced per picture and a Kling channel for it, and tests it", async () => {
    const admin = await makeSignedIn(["platform_admin"]);
    const page = await admin.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const modelKey = `e2e-image-${run}`;

    // An image model has a price per picture instead of a context window and token prices.
    await open(page, "/model");
    await page.getByTestId("model-add").click();
    await page.getByTestId("model-key").fill(modelKey);
    await page.getByTestId("model-display-name").fill("可灵图片");
    await page.getByTestId("model-input-price").waitFor();
    await choose(page, "model-kind", "Image");
    await page.getByTestId("model-unit-price").waitFor();
    expect(await page.getByTestId("model-input-price").count()).toBe(0);
    expect(await page.getByTestId("model-context-window").count()).toBe(0);
    await page.getByText("Yuan per picture generated.").waitFor();
    await page.getByTestId("model-upstream").fill("kling-v1");
    await page.getByTestId("model-unit-price").fill("0.05");
    await page.getByTestId("model-save").click();
    const modelRow = page.locator(`[data-testid=model-row][data-key="${modelKey}"]`);
    await modelRow.waitFor();
    expect(await modelRow.getByTestId("model-unit-price-cell").innerText()).toBe("0.05 Z / picture");
    const [stored] = await sql("SELECT unit_price_micro, kind::text AS kind FROM model WHERE key = $1", [modelKey]);
    expect(stored).toEqual({ unit_price_micro: 50_000, kind: "image" });

    // A Kling channel: its usual address is suggested, and its key must be accessKey:secretKey.
    const name = `e2e kling ${run}`;
    await open(page, "/modelProducer");
    await page.getByTestId("channel-add").click();
    await page.getByTestId("channel-name").fill(name);
    await choose(page, "channel-type", "Kling (images, video)");
    // The placeholders follow the chosen type once the form has re-rendered.
    await expect.poll(() => page.getByTestId("channel-base-url").getAttribute("placeholder")).toBe("https://api-beijing.klingai.com");
    await expect.poll(() => page.getByTestId("channel-key").getAttribute("placeholder")).toBe("accessKey:secretKey");
    await page.getByTestId("channel-base-url").fill(kling.url);
    await page.getByTestId("channel-key").fill("only-the-access-key");
    await page.getByText("A Kling key is the access key and the secret key joined by a colon: accessKey:secretKey").waitFor();
    await page.getByTestId("channel-key").fill(kling.secret);
    await page.getByText("A Kling key is the access key and the secret key joined by a colon: accessKey:secretKey").waitFor({ state: "detached" });
    await page.locator("[data-testid=channel-models] input").fill(modelKey);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Escape");
    await page.getByTestId("channel-save").click();
    await row(page, name).waitFor();
    expect(await row(page, name).innerText()).toContain("Kling (images, video)");
    expect(await row(page, name).innerText()).toContain(kling.secret.slice(-4));

    // The test button asks Kling for its task list with a signed token; nothing is generated.
    await row(page, name).getByTestId("channel-test").click();
    await page.getByText(/The channel answered in \d+ ms/).waitFor();
    expect(kling.requests.map((r) => `${r.method} ${r.path}${r.query}`)).toEqual(["GET /v1/images/generations?pageNum=1&pageSize=1"]);
    expect(kling.tasks.size).toBe(0);
    expect(errors).toEqual([]);
    await admin.close();
  });

  it("shows the catalogue to everyone, the admin page to administrators only, and own keys by edition", async () => {
    const basic = await makeSignedIn(["individual_developer"]);
    const page = await basic.newPage();
    await open(page, "/model");
    await page.locator(`[data-testid=model-row][data-key="${inject("chatModelKey")}"]`).waitFor();
    expect(await page.getByTestId("model-add").count()).toBe(0);
    await page.goto("/modelProducer");
    await page.waitForURL(/\/no_page_perm/);
    await open(page, "/setting");
    await page.getByTestId("model-keys-upgrade").waitFor();
    expect(await page.getByTestId("model-keys-upgrade").innerText()).toContain("Flagship");
    await basic.close();

    const flagship = await makeSignedIn(["individual_developer"], { edition: "flagship" });
    const own = await flagship.newPage();
    await open(own, "/setting");
    const card = own.getByTestId("model-keys-card");
    await card.getByTestId("channel-add").click();
    await own.getByTestId("channel-name").fill("my key");
    await own.getByTestId("channel-base-url").fill("http://127.0.0.1:9/v1");
    await own.getByTestId("channel-key").fill("sk-my-own-key-1234");
    await own.locator("[data-testid=channel-models] input").fill(inject("chatModelKey"));
    await own.keyboard.press("Enter");
    await own.keyboard.press("Escape");
    await own.getByTestId("channel-save").click();
    // Own keys must point at the public internet: the platform will not call into private networks.
    await own.getByText("The address must be on the public internet, not a private, loopback or reserved address").first().waitFor();
    await flagship.close();
  });
});

// A developer aid, not a check: registered only when SHOTS names a folder.
if (SHOTS)
  describe("screenshots", () => {
    it("saves the pages at desktop and phone size in zh_hans and en", async () => {
      fs.mkdirSync(SHOTS!, { recursive: true });
      for (const lang of ["zh_hans", "en"]) {
        for (const phone of [false, true]) {
          const ctx = await makeSignedIn(["platform_admin"], { lang, phone, edition: "flagship" });
          // An own key, stored straight away (its address is never called here).
          await sql(
            `INSERT INTO channel (id, name, type, base_url, key_encrypted, key_hint, models, weight, priority, owner_account_id, updated_at) VALUES ($1, 'DeepSeek', 'deepseek', 'https://api.deepseek.com/v1', 'v1.x.y.z', 'a1b2', ARRAY[$2], 3, 0, $3, now())`,
            [`own${crypto.randomBytes(8).toString("hex")}`, inject("chatModelKey"), ctx.accountId],
          );
          const page = await ctx.newPage();
          const size = phone ? "phone" : "desktop";
          for (const url of ["/model", "/modelProducer", "/setting"]) {
            await open(page, phone ? `/mobi${url}` : url);
            await page.waitForTimeout(300);
            await page.screenshot({ path: path.join(SHOTS!, `${url.slice(1)}-${lang}-${size}.png`), fullPage: url !== "/setting" });
          }
          await page.getByTestId("model-keys-card").screenshot({ path: path.join(SHOTS!, `setting-card-${lang}-${size}.png`) });
          await page.getByTestId("model-keys-card").getByTestId("channel-edit").click();
          await page.getByTestId("channel-form").waitFor();
          await page.waitForTimeout(400);
          await page.screenshot({ path: path.join(SHOTS!, `setting-drawer-${lang}-${size}.png`) });
          await open(page, phone ? "/mobi/model" : "/model");
          await page.getByTestId("model-add").click();
          await page.getByTestId("model-display-name").fill("一个太长的模型显示名称");
          await page.waitForTimeout(400);
          await page.screenshot({ path: path.join(SHOTS!, `model-drawer-${lang}-${size}.png`) });
          await ctx.close();
        }
      }
    });
  });
