// Training sets in a real browser: create a Q&A set with two items, import a csv and
// read the report of added and refused rows, see the set train to "done"; create a smart text set,
// upload a docx and see the worker read it to "done" with its character count; the list at desktop
// and phone width. With TRAIN_SHOTS=<dir>, also writes screenshots of the pages (desktop and phone).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { launchBrowser, newContext, toast } from "../helpers/browser";
import { makeDocx } from "../helpers/sample-files";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const shotsDir = process.env.TRAIN_SHOTS;

/** A professional account with a live session, made in the database (login has its own tests). */
async function makeAccount(account: string) {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, updated_at) VALUES ($1, $2, $2, '{individual_developer}'::"Role"[], 'professional', now() + interval '30 days', now())`,
    [id, account],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  return token;
}

async function signedIn(token: string, opts: { phone?: boolean; lang?: string } = {}): Promise<BrowserContext> {
  const context = await newContext(browser, { baseURL, lang: opts.lang ?? "en", phone: opts.phone });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return context;
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

async function shoot(page: Page, name: string) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.waitForTimeout(500); // let dialogs finish opening
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("training sets", () => {
  let token = "";
  beforeAll(async () => {
    token = await makeAccount(`trainer_${run}`);
  });

  it("creates a Q&A set with two items, imports a csv with a report, and trains it", async () => {
    const context = await signedIn(token);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await open(page, "/train");
    await page.locator("[data-testid=train-empty]").waitFor();
    await page.locator("[data-testid=train-create-standard]").click();
    await page.waitForURL(/\/create_normal_train/);
    await page.waitForSelector("html[data-hydrated]");
    // The name's rule as you type, then the set is made and the page takes its id.
    await page.locator("[data-testid=train-name-input]").fill("售后问答");
    await page.locator("[data-testid=train-intro-input]").fill("Questions customers ask after buying");
    await page.locator("[data-testid=train-info-submit]").click();
    await page.waitForURL(/create_normal_train\?id=/);
    await page.locator("[data-testid=qa-card]").waitFor();

    for (const [q, a] of [
      ["How do I return an item?", "Within 7 days of delivery, keep the packaging."],
      ["Who pays for shipping?", "We do when the item is faulty; otherwise the buyer."],
    ]) {
      await page.locator("[data-testid=qa-add]").click();
      await page.locator("[data-testid=qa-question]").fill(q);
      await page.locator("[data-testid=qa-answer]").fill(a);
      await page.locator("[data-testid=qa-save]").click();
      await page.locator("[data-testid=qa-row]", { hasText: q }).waitFor();
    }
    // The same question again is refused on its field.
    await page.locator("[data-testid=qa-add]").click();
    await page.locator("[data-testid=qa-question]").fill("how do I return an item?");
    await page.locator("[data-testid=qa-answer]").fill("Again");
    await page.locator("[data-testid=qa-save]").click();
    await page.locator(".ant-form-item-explain-error", { hasText: "This question is already in the training set" }).waitFor();
    await page.locator(".ant-modal .ant-modal-close").click();
    expect(await page.locator("[data-testid=qa-row]").count()).toBe(2);

    // Import: two good rows, an empty answer, and a question already in the set.
    const csv = [
      "Question,Answer",
      "How long is delivery?,Two to five working days.",
      "Can I pay by card?,",
      "Who pays for shipping?,Someone",
      "Do you ship abroad?,Yes to most countries.",
    ].join("\n");
    await page.locator("[data-testid=qa-card] input[type=file]").setInputFiles({ name: "faq.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const report = page.locator(".ant-modal", { hasText: "Import report" });
    await report.waitFor();
    await report.locator("[data-testid=qa-import-summary]", { hasText: "2 added, 2 refused" }).waitFor();
    await expect.poll(() => report.locator("[data-testid=qa-import-row][data-status=refused]").count()).toBe(2);
    await report.locator("[data-testid=qa-import-row][data-row='3']", { hasText: "The answer is empty" }).waitFor();
    await report.locator("[data-testid=qa-import-row][data-row='4']", { hasText: "Already in the training set" }).waitFor();
    await shoot(page, "import-report-desktop");
    await report.locator(".ant-btn-primary").click();
    await page.locator("[data-testid=qa-card] .ant-card-head", { hasText: "4 items" }).waitFor();

    // The worker trains the set; the page follows its state by itself.
    await page.locator(".train-head [data-testid=training-state][data-state=done]").waitFor({ timeout: 30_000 });
    await expect.poll(async () => page.locator("[data-testid=train-set-chars]").innerText()).not.toBe("Characters: 0");
    await shoot(page, "qa-set-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("creates a smart set, uploads a docx and sees it read to done with its characters", async () => {
    const context = await signedIn(token);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await open(page, "/train");
    await page.locator("[data-testid=train-create-smart]").click();
    await page.waitForURL(/\/create_train/);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=train-name-input]").fill("产品手册");
    await page.locator("[data-testid=train-info-submit]").click();
    await page.waitForURL(/create_train\?id=/);
    await page.locator("[data-testid=docs-advice]", { hasText: "50,000" }).waitFor();

    const text = "退货政策：收到商品七天内可以无理由退货，请保持包装完好。Refunds reach the original payment method within three working days.";
    await page.locator("[data-testid=docs-card] input[type=file]").setInputFiles({
      name: "退货政策说明书第二版最终定稿版本修订稿.docx",
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: makeDocx(text),
    });
    await toast(page, "1 file uploaded: training");
    const row = page.locator("[data-testid=doc-row]");
    await row.first().waitFor();
    // A base name over 18 characters shows its first 10, an ellipsis and the extension.
    expect(await row.first().innerText()).toContain("退货政策说明书第二版….docx");
    await page.locator("[data-testid=doc-row][data-state=done]").waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-testid=doc-chars]").innerText()).toBe(String([...text].length));
    await page.locator(".train-head [data-testid=training-state][data-state=done]").waitFor();
    // A renamed executable is refused, named, and nothing is added.
    await page.locator("[data-testid=docs-card] input[type=file]").setInputFiles({
      name: "manual.docx",
      mimeType: "application/octet-stream",
      buffer: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), crypto.randomBytes(512)]),
    });
    await toast(page, "manual.docx:");
    expect(await row.count()).toBe(1);
    await shoot(page, "smart-set-desktop");

    // The list shows both sets with their type, characters and state.
    await open(page, "/train");
    const rows = page.locator("[data-testid=train-row]");
    await expect.poll(() => rows.count()).toBe(2);
    await page.locator("[data-testid=train-row]", { hasText: "产品手册" }).locator("[data-testid=training-state][data-state=done]").waitFor();
    expect(await page.locator("[data-testid=train-row]", { hasText: "产品手册" }).innerText()).toContain("Smart text");
    await shoot(page, "train-list-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the list at phone width, in Chinese", async () => {
    const context = await signedIn(token, { phone: true, lang: "zh_hans" });
    const page = await context.newPage();
    await open(page, "/mobi/train");
    await expect.poll(() => page.locator(".train-card[data-testid=train-row]").count()).toBe(2);
    await page.locator("[data-testid=train-create-standard]", { hasText: "新建问答训练集" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(page, "train-list-phone");
    await page.locator("[data-testid=train-row]", { hasText: "售后问答" }).locator("a.train-name").click();
    await page.waitForURL(/\/mobi\/create_normal_train\?id=/);
    await page.locator("[data-testid=qa-row]").first().waitFor();
    await shoot(page, "qa-set-phone");
    await context.close();
  });
});
