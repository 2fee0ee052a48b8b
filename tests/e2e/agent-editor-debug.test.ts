// The agent editor's two panes in Chromium: the form in folding sections beside a live debug chat
// of the draft. A new agent's first debug message saves it and is answered; an edited prompt, not
// saved by hand, reaches the model with the next message of the same conversation; a required
// variable is asked for before anything is sent; "restart conversation" starts a new dialogue; a
// refused field unfolds its section; the pane sticks while the form scrolls. On a 375 px phone
// the form is one column and the debug chat opens from its button. Also: "Create agent" at the
// edition's limit, and the Q&A page's hint for the offline model.
//
// The agent's model is on a loopback fake upstream this file starts (it records every request),
// added through the administration API as an administrator would.
// With EDITOR_SHOTS=<dir>, also writes screenshots at 1440 px and 375 px for people to look at.
import crypto from "node:crypto";
import path from "node:path";
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFakeOpenai } from "../fakes/fake-openai";
import { launchBrowser, newContext, toast } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { fundE2eAccount } from "../helpers/money";

const baseURL = inject("webUrl");
const uid = () => crypto.randomBytes(4).toString("hex");
const run = uid();
const shotsDir = process.env.EDITOR_SHOTS;
const model = { key: `e2e-editor-${run}`, upstreamKey: `sk-editor-${run}` };
const PHONE_375 = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

let browser: Browser;
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
let owner: { id: string; token: string };
let agentId = "";

async function admin(apiPath: string, body: unknown) {
  const res = await fetch(`${baseURL}/api${apiPath}`, {
    method: "POST",
    headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { status: number; description: string };
  if (json.status !== 200) throw new Error(`${apiPath}: ${json.status} ${json.description}`);
}

/** A basic-edition developer with a live session and gift credit for the channel's fees. */
async function makeOwner(account: string) {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $2, '{individual_developer}'::"Role"[], now())`, [id, account]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  await fundE2eAccount(inject("databaseUrl"), id);
  return { id, token };
}

async function signedIn(opts: { phone?: boolean; lang?: string; token?: string } = {}): Promise<BrowserContext> {
  const context = opts.phone ? await browser.newContext({ ...PHONE_375, baseURL }) : await newContext(browser, { baseURL });
  await context.addCookies([
    { name: "zl_session", value: opts.token ?? owner.token, url: baseURL },
    { name: "lang", value: opts.lang ?? "en", url: baseURL },
  ]);
  return context;
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

async function shoot(page: Page, name: string, fullPage = false) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage });
}

/** The chat completions the model was asked (embeddings left out), in order. */
const asked = () => fake.receivedFor(model.upstreamKey).filter((r) => Array.isArray(r.body?.messages));
const systemOf = (r: { body: { messages: Array<{ role: string; content: unknown }> } }) =>
  String(r.body.messages.find((m) => m.role === "system")?.content ?? "");
const pane = (page: Page) => page.locator("[data-testid=debug-pane]");
const replies = (page: Page) => pane(page).locator("[data-testid=assistant-message]");
const sectionHead = (page: Page, key: string) => page.locator(".ant-collapse-header", { has: page.locator(`[data-testid=section-head-${key}]`) });
const isOpen = async (page: Page, key: string) => (await sectionHead(page, key).getAttribute("aria-expanded")) === "true";

async function ask(page: Page, text: string) {
  const before = await replies(page).count();
  await pane(page).locator("[data-testid=message-input]").fill(text);
  await pane(page).locator("[data-testid=message-input]").press("Enter");
  await replies(page).nth(before).and(page.locator("[data-status=done]")).waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  browser = await launchBrowser();
  fake = await startFakeOpenai();
  fake.setBehaviour(model.upstreamKey, { stream: { text: "Aye, here is the answer.", chunks: 3, delayMs: 10 } });
  await admin("/v1/admin/models", { key: model.key, display_name: "编辑器调试", kind: "text", context_window: 32000 });
  await admin("/v1/admin/channels", { name: `editor e2e ${run}`, type: "custom", base_url: fake.base, key: model.upstreamKey, models: [model.key], weight: 1 });
  owner = await makeOwner(`editor_${run}`);
});
afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

describe("agent editor with its debug chat", () => {
  it("debugs the draft beside the form: saved on the first message, edits reach the model on the next", async () => {
    const context = await signedIn();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page, "/agentDetail");

    // Two panes: the core sections open, the empty ones folded, the debug chat beside them.
    await pane(page).waitFor();
    expect(await isOpen(page, "basics")).toBe(true);
    expect(await isOpen(page, "prompt")).toBe(true);
    expect(await isOpen(page, "variables")).toBe(false);
    expect(await isOpen(page, "pricing")).toBe(false);
    expect(await page.locator("[data-testid=agent-debug]").count()).toBe(0);
    const [formBox, paneBox] = await Promise.all([page.locator(".agent-editor__main").boundingBox(), pane(page).boundingBox()]);
    expect(paneBox!.x).toBeGreaterThan(formBox!.x + formBox!.width - 1);

    await page.locator("[data-testid=agent-name]").fill("Pirate");
    await page.locator("[data-testid=agent-introduction]").fill("Talks like a pirate.");
    await page.locator("[data-testid=section-model] .ant-select").first().click();
    await page.keyboard.type(model.key);
    await page.locator(".ant-select-item-option", { hasText: model.key }).click();
    await page.locator("[data-testid=agent-prompt]").fill("You are a pirate captain.");
    await page.locator("[data-testid=agent-welcome]").fill("Ahoy! Ask me anything.");
    // A price for market users: the owner's debug chat never pays it.
    await sectionHead(page, "pricing").click();
    await page.locator("[data-testid=agent-use_price]").fill("1");
    // The pane shows the form as it is, before any save.
    await pane(page).locator("[data-testid=welcome]", { hasText: "Ahoy! Ask me anything." }).waitFor();
    await shoot(page, "editor-new-desktop-1440");

    // The first message saves the new agent (its address changes, the conversation stays) and is answered.
    await ask(page, "Where is the treasure?");
    await page.waitForURL(/\/agentDetail\?id=.+/);
    agentId = new URL(page.url()).searchParams.get("id")!;
    expect(await pane(page).locator("[data-testid=user-message]", { hasText: "Where is the treasure?" }).count()).toBe(1);
    expect(await replies(page).last().locator("[data-testid=answer]").innerText()).toContain("Aye, here is the answer.");
    expect(systemOf(asked().at(-1)!)).toContain("You are a pirate captain.");
    expect(await page.locator("[data-testid=agent-editor]").getAttribute("data-dirty")).toBe("0");

    // An edit nobody saved by hand: the next message of the same conversation is answered by it.
    await page.locator("[data-testid=agent-prompt]").fill("You are a careful librarian.");
    await page.locator("[data-testid=unsaved-tag]").waitFor();
    await ask(page, "Any books on maps?");
    const second = asked().at(-1)!;
    expect(systemOf(second)).toContain("You are a careful librarian.");
    expect(systemOf(second)).not.toContain("pirate");
    expect(second.body.messages.map((m: { content: unknown }) => String(m.content))).toContain("Where is the treasure?");
    await page.locator("[data-testid=unsaved-tag]").waitFor({ state: "detached" });
    const versions = await sql("SELECT state, config->>'prompt' AS prompt FROM agent_version WHERE agent_id = $1", [agentId]);
    expect(versions).toEqual([{ state: "draft", prompt: "You are a careful librarian." }]);
    expect((await sql("SELECT count(*)::int AS n FROM agent WHERE owner_account_id = $1", [owner.id]))[0].n).toBe(1);
    expect((await sql("SELECT count(*)::int AS n FROM agent_use WHERE agent_id = $1", [agentId]))[0].n).toBe(0);

    // A required variable: the pane asks for it before anything leaves, then the model gets its value.
    await sectionHead(page, "variables").click();
    await page.locator("[data-testid=variable-add]").click();
    await page.locator("[data-testid=variable-row] [data-testid=variable-name]").fill("city");
    await page.locator("[data-testid=variable-row] [data-testid=variable-required]").click();
    await page.locator("[data-testid=agent-prompt]").fill("You are a careful librarian in ");
    await page.locator("[data-testid=insert-variable-city]").click();
    await pane(page).locator("[data-testid=variable-city]").waitFor();
    const sentBefore = asked().length;
    await pane(page).locator("[data-testid=message-input]").fill("Which library is best?");
    await pane(page).locator("[data-testid=message-input]").press("Enter");
    await pane(page).getByText("Fill in this required variable").waitFor();
    expect(asked().length).toBe(sentBefore);
    await pane(page).locator("[data-testid=variable-city]").fill("Lisbon");
    await ask(page, "Which library is best?");
    expect(systemOf(asked().at(-1)!)).toContain("You are a careful librarian in Lisbon");
    await shoot(page, "editor-chat-desktop-1440");

    // The pane stays in view while the form scrolls, and scrolls on its own.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => pane(page).evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBe(16);
    expect(await pane(page).evaluate((el) => getComputedStyle(el).position)).toBe("sticky");
    await shoot(page, "editor-scrolled-desktop-1440");

    // Restart: an empty conversation, the variables asked again, and the next message starts a new dialogue.
    await pane(page).locator("[data-testid=debug-restart]").click();
    expect(await pane(page).locator("[data-testid=user-message]").count()).toBe(0);
    await pane(page).locator("[data-testid=variables-form]").waitFor();
    await pane(page).locator("[data-testid=variable-city]").fill("Porto");
    await ask(page, "Hello again");
    await expect
      .poll(() =>
        asked()
          .filter((r) => !r.aborted)
          .at(-1)
          ?.body.messages.map((m: { content: unknown }) => String(m.content)),
      )
      .not.toContain("Which library is best?");
    expect(
      systemOf(
        asked()
          .filter((r) => !r.aborted)
          .at(-1)!,
      ),
    ).toContain("librarian in Porto");
    expect((await sql("SELECT count(*)::int AS n FROM dialogue WHERE agent_id = $1", [agentId]))[0].n).toBe(2);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "editor-top-desktop-1440");

    // A refusal in a folded section unfolds it: an unnamed variable, the section folded, then Save.
    await page.locator("[data-testid=variable-add]").click();
    await sectionHead(page, "variables").click();
    await expect.poll(() => isOpen(page, "variables")).toBe(false);
    await page.locator("[data-testid=agent-save]").click();
    await toast(page, "Please correct the highlighted fields");
    await expect.poll(() => isOpen(page, "variables")).toBe(true);
    expect(await page.locator("[data-testid=section-head-variables]").getAttribute("data-error")).toBe("1");
    await page.locator("[data-testid=variable-row]").nth(1).locator(".ant-form-item-explain-error").first().waitFor();
    await page.locator("[data-testid=variable-row]").nth(1).locator("[data-testid=variable-remove]").click();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a 375 px phone keeps one column and opens the debug chat from its button", async () => {
    const context = await signedIn({ phone: true });
    const page = await context.newPage();
    await open(page, `/mobi/agentDetail?id=${agentId}`);
    await page.locator("[data-testid=agent-name]").waitFor();
    expect(await pane(page).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(page, "editor-phone-375");
    await shoot(page, "editor-phone-375-full", true);

    await page.locator("[data-testid=agent-debug]").click();
    await pane(page).waitFor();
    await pane(page).locator("[data-testid=variable-city]").fill("Faro");
    await ask(page, "What do you read?");
    expect(
      systemOf(
        asked()
          .filter((r) => !r.aborted)
          .at(-1)!,
      ),
    ).toContain("librarian in Faro");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(page, "editor-debug-phone-375");
    // One focus ring on the message box: its frame's, not antd's inside it.
    expect(
      await pane(page)
        .locator("[data-testid=message-input]")
        .evaluate((el) => getComputedStyle(el).outlineStyle),
    ).toBe("none");
    await pane(page).locator("[data-testid=debug-close]").click();
    await pane(page).waitFor({ state: "hidden" });
    await context.close();
  });

  it("disables Create agent at the edition's limit, saying the limit and linking to the upgrade page", async () => {
    // The basic edition allows one agent, and this account has it.
    const context = await signedIn();
    const page = await context.newPage();
    await open(page, "/creator");
    const create = page.locator("[data-testid=creator-create]");
    expect(await create.isDisabled()).toBe(true);
    await page.locator("[data-testid=creator-create-locked]").hover();
    const tip = page.locator(".ant-tooltip [data-testid=create-limit]");
    await tip.waitFor();
    expect(await tip.innerText()).toContain("Your edition allows 1 agent.");
    await shoot(page, "creator-limit-desktop-1440");
    await tip.locator("[data-testid=create-limit-upgrade]", { hasText: "Upgrade to Professional for more" }).click();
    await page.waitForURL(/\/upgrade(\?|$)/);

    // With room for more, the button is an ordinary one.
    await sql("UPDATE account SET edition = 'professional', edition_expires_at = now() + interval '30 days' WHERE id = $1", [owner.id]);
    await open(page, "/creator");
    expect(await page.locator("[data-testid=creator-create]").isEnabled()).toBe(true);
    expect(await page.locator("[data-testid=creator-create-locked]").count()).toBe(0);
    await page.locator("[data-testid=creator-create]").click();
    await page.waitForURL(/\/agentDetail/);
    await sql("UPDATE account SET edition = 'basic', edition_expires_at = NULL WHERE id = $1", [owner.id]);

    // On a phone the notice says the same, with the same link.
    const phone = await signedIn({ phone: true });
    const phonePage = await phone.newPage();
    await open(phonePage, "/mobi/creator");
    expect(await phonePage.locator("[data-testid=creator-create]").isDisabled()).toBe(true);
    await phonePage.locator("[data-testid=limit-notice] [data-testid=create-limit]", { hasText: "Your edition allows 1 agent." }).waitFor();
    expect(await phonePage.locator("[data-testid=limit-notice] [data-testid=create-limit-upgrade]").getAttribute("href")).toMatch(/^\/mobi\/upgrade/);
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(phonePage, "creator-limit-phone-375");
    await phone.close();
    await context.close();
  });

  it("tells how to phrase Q&A questions for the offline model, in the reader's language", async () => {
    for (const [lang, title] of [
      ["en", "Agents on the offline model match questions by their words"],
      ["zh_hans", "使用离线模型的智能体按字词重合度匹配问题"],
    ]) {
      // An account of its own per language: the basic edition allows one training set.
      const author = await makeOwner(`qa_${lang}_${run}`);
      const context = await signedIn({ lang, token: author.token });
      const page = await context.newPage();
      await open(page, "/train");
      await page.locator("[data-testid=train-create-standard]").click();
      await page.waitForURL(/\/create_normal_train/);
      await page.waitForSelector("html[data-hydrated]");
      await page.locator("[data-testid=train-name-input]").fill(`QA ${lang} ${run}`);
      await page.locator("[data-testid=train-info-submit]").click();
      await page.waitForURL(/\?id=.+/);
      const hint = page.locator("[data-testid=qa-offline-hint]");
      await hint.waitFor();
      expect(await hint.innerText()).toContain(title);
      if (lang === "en") {
        expect(await hint.innerText()).toContain("Put one question in each item");
        await shoot(page, "qa-offline-hint-desktop-1440");
      }
      await context.close();
    }
  });
});
