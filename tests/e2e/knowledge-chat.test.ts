// Knowledge end to end in Chromium: a builder makes a Q&A set, attaches it to an agent
// on the offline channel (labelled as retrieval without a language model), asks a paraphrased
// question in the debug chat and gets the item's answer with its citation; then uploads a docx to
// a smart set, waits for the job to train it, and sees a passage of it cited in a chat.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { fundE2eAccount } from "../helpers/money";
import { launchBrowser, newContext } from "../helpers/browser";
import { makeDocx } from "../helpers/sample-files";

let browser: Browser;
const baseURL = inject("webUrl");
const chatModelKey = inject("chatModelKey");
const run = crypto.randomBytes(3).toString("hex");

async function makeSignedIn(account: string): Promise<{ context: BrowserContext; id: string }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, updated_at) VALUES ($1, $2, $2, '{individual_developer}', 'professional', now() + interval '30 days', now())`,
    [id, account],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  // Every reply costs the channel fee: gift credit as the experience bonus would give.
  await fundE2eAccount(inject("databaseUrl"), id);
  const context = await newContext(browser, { baseURL, lang: "zh_hans" });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return { context, id };
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

async function setState(setId: string) {
  const [row] = await sql("SELECT state FROM training_set WHERE id = $1", [setId]);
  return row?.state as string | undefined;
}

/** Makes a set of this type through its page and returns its id. */
async function createSet(page: Page, type: "standard" | "smart", name: string) {
  await open(page, "/train");
  await page.locator(`[data-testid=train-create-${type}]`).click();
  await page.waitForURL(type === "standard" ? /\/create_normal_train/ : /\/create_train/);
  await page.waitForSelector("html[data-hydrated]");
  await page.locator("[data-testid=train-name-input]").fill(name);
  await page.locator("[data-testid=train-info-submit]").click();
  await page.waitForURL(/\?id=.+/);
  return new URL(page.url()).searchParams.get("id")!;
}

/** A new agent on the given model using the given set, saved; returns its id. */
async function createAgent(page: Page, opts: { name: string; model: string; setName: string; outOfScope?: string }) {
  await open(page, "/agentDetail");
  await page.locator("[data-testid=agent-name]").fill(opts.name);
  await page.locator("[data-testid=agent-introduction]").fill("Answers from its training sets.");
  await page.locator("[data-testid=section-model] .ant-select").first().click();
  await page.keyboard.type(opts.model);
  await page.locator(".ant-select-item-option", { hasText: opts.model }).click();
  await page.locator("[data-testid=agent-training-sets]").click();
  await page.keyboard.type(opts.setName);
  await page.locator(".ant-select-item-option", { hasText: opts.setName }).click();
  await page.keyboard.press("Escape");
  if (opts.outOfScope) await page.locator("[data-testid=agent-out-of-scope]").fill(opts.outOfScope);
  await page.locator("[data-testid=agent-save]").click();
  await page.waitForURL(/\/agentDetail\?id=.+/);
  return new URL(page.url()).searchParams.get("id")!;
}

async function ask(page: Page, agentId: string, question: string) {
  await open(page, `/dialogue?agent_id=${agentId}`);
  await page.locator("[data-testid=chat-input] textarea").fill(question);
  await page.keyboard.press("Enter");
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("knowledge in the chat", () => {
  it("answers a paraphrased question from a Q&A set on the offline channel, with its citation", async () => {
    const { context } = await makeSignedIn(`know_${run}`);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    const setName = `售后问答${run}`;
    const setId = await createSet(page, "standard", setName);
    const items: Array<[string, string]> = [
      ["退货政策是什么？", "收到商品 7 天内可无理由退货，请保持包装完好。"],
      ["会员有哪些权益？", "会员每月领取 100 Z 币，并享受九折购买应用。"],
    ];
    for (const [question, answer] of items) {
      await page.locator("[data-testid=qa-add]").click();
      await page.locator("[data-testid=qa-question]").fill(question);
      await page.locator("[data-testid=qa-answer]").fill(answer);
      await page.locator("[data-testid=qa-save]").click();
      await page.locator("[data-testid=qa-row]", { hasText: question }).waitFor();
    }
    // Trained by the worker's job; the page follows it to "done".
    await expect.poll(() => setState(setId), { timeout: 20_000 }).toBe("done");
    await page.locator("[data-testid=training-state][data-state=done]").first().waitFor({ timeout: 10_000 });

    const agentId = await createAgent(page, { name: `售后${run.slice(0, 2)}`, model: "zelin-offline", setName, outOfScope: "这个问题我答不了。" });
    // Said plainly: the offline model is retrieval, not a language model.
    await page.locator("[data-testid=offline-model-hint]").waitFor();
    await page.locator("[data-testid=chosen-training-set][data-state=done]").waitFor();

    await ask(page, agentId, "我想退货，有什么政策？");
    await page.getByText(items[0][1]).last().waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=citations]").last().waitFor();
    await page.locator("[data-testid=citation]", { hasText: items[0][0] }).last().click();
    await expect.poll(() => page.locator("[data-testid=citation-text]").last().textContent()).toContain(items[0][1]);

    // Outside the set: the agent's out-of-scope reply, with nothing cited.
    await page.locator("[data-testid=chat-input] textarea").fill("明天会下雨吗？");
    await page.keyboard.press("Enter");
    await page.getByText("这个问题我答不了。").last().waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("trains an uploaded docx in a smart set and cites a passage of it", async () => {
    const { context } = await makeSignedIn(`docx_${run}`);
    const page = await context.newPage();
    const setName = `产品手册${run}`;
    const setId = await createSet(page, "smart", setName);
    const text = "保修条款：整机保修两年，电池保修一年。维修网点遍布全国三百个城市，预约后上门取件。";
    await page
      .locator("[data-testid=docs-card] input[type=file]")
      .setInputFiles({ name: "保修说明.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: makeDocx(text) });
    await page.locator("[data-testid=doc-row][data-state=done]").waitFor({ timeout: 20_000 });
    await expect.poll(() => setState(setId), { timeout: 20_000 }).toBe("done");
    const [doc] = await sql("SELECT char_count FROM training_document WHERE training_set_id = $1", [setId]);
    expect(doc.char_count).toBe([...text].length);
    await expect.poll(() => page.locator("[data-testid=doc-chars]").first().textContent()).toContain(String(doc.char_count));

    // An agent on a language model reads the passage; the chat cites it.
    const agentId = await createAgent(page, { name: `手册${run.slice(0, 2)}`, model: chatModelKey, setName });
    await ask(page, agentId, "电池保修多久？");
    await page.locator("[data-testid=citations]").last().waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=citation]", { hasText: "保修说明.docx" }).last().click();
    await expect.poll(() => page.locator("[data-testid=citation-text]").last().textContent()).toContain("电池保修一年");
    await context.close();
  });
});
