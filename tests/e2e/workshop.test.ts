// Workshops in Chromium. A developer makes a workshop on its pages (the browser refuses an
// on-demand node without a host, with the server's words), gives it three roles (a host agent, a
// speaking agent, and the person's own role) and an on-demand node, runs it: the host picks Alice,
// whose reply streams in under the host's instruction; the person answers as Bob when asked; the
// host then ends the run, and the page says so. The workshop is published as an app with the app
// form's workshop picker; an edit shows on the app as a change until it is synced. Then, on a 375 px
// phone and signed out, a visitor opens the app's share link, lands on /workshop?app=, runs it the
// same way and finds the run among their earlier ones, with nothing scrolling sideways. The agents
// answer through a loopback OpenAI-compatible fake this test starts; the host's answer is the JSON
// the engine asks for, chosen from the transcript it is shown. WORKSHOP_SHOTS=<dir> saves screenshots.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAgent, publishAgent } from "../../server/agents/agents.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { approveApp } from "../../server/apps/apps.service";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";
import { startFakeOpenai, type TKeyBehaviour } from "../fakes/fake-openai";
import { clickWhenSettled, launchBrowser, newContext, toast } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { fundAccount } from "../helpers/money";
import { makePng } from "../helpers/png";

const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const SHOTS = process.env.WORKSHOP_SHOTS;
const PHONE = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const TOPIC = "How should we launch the new note-taking app?";

let browser: Browser;
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
let dev: { id: string; token: string };
let workshopId = "";
let appId = "";

/**
 * The host's answer, from the transcript it reads: Alice first; once Alice has spoken, the person
 * (Bob); once Bob has answered (his second line: the topic reads as his first), END.
 */
function hostAnswer(body: { messages?: { content?: unknown }[] }) {
  const transcript = (body.messages ?? []).map((m) => String(m.content ?? "")).join("\n");
  if ((transcript.match(/\[Bob\]:/g) ?? []).length >= 2) return '{"next":"END","instruction":"Close the discussion"}';
  if (transcript.includes("[Alice]:")) return '{"next":"Bob","instruction":"Say which plan you prefer"}';
  return '{"next":"Alice","instruction":"Open with one concrete idea"}';
}

/** A published agent of the developer on a model of its own, served by the fake with `behaviour`. */
async function makeAgent(name: string, behaviour: TKeyBehaviour) {
  const key = `sk-ws-${name.replace(/\W/g, "").toLowerCase()}-${run}`;
  const modelKey = `ws-${name.replace(/\W/g, "").toLowerCase()}-${run}`;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: name, supports_tools: false, supports_reasoning: false }));
  await createChannel(ZCreateChannelInput.parse({ name: `ws ${modelKey}`, type: "openai", base_url: fake.base, key, models: [modelKey], weight: 1 }));
  fake.setBehaviour(key, behaviour);
  const actor = { id: dev.id, roles: [] as never[], enterpriseId: null };
  const agent = await createAgent(
    actor,
    ZAgentInput.parse({ name, introduction: `${name} for the workshop test`, model_key: modelKey, show_reasoning: false }),
  );
  await publishAgent(actor, { id: agent.id });
  return agent.id;
}

async function makeAccount(roles: string[] = []) {
  const row = await getDb().account.create({
    data: {
      account: `ws${crypto.randomBytes(5).toString("hex")}`,
      nickname: "Workshop Dev",
      edition: "flagship",
      editionExpiresAt: new Date(Date.now() + 30 * 86_400_000),
      roles: roles as never[],
      language: "en",
    },
    select: { id: true },
  });
  return { id: row.id, token: (await startSession(row.id)).token };
}

async function ensureCategory() {
  const rows = (await sql("SELECT names FROM app_category ORDER BY sort_order LIMIT 1")) as Array<{ names: Record<string, string> }>;
  if (rows.length) return rows[0].names.en;
  await sql("INSERT INTO app_category (slug, names, sort_order) VALUES ($1, $2::jsonb, $3)", [
    `ws_${run}`,
    JSON.stringify({ zh_hans: "工坊", zh_hant: "工坊", en: `Workshops ${run}`, pt: "Oficinas" }),
    800_000 + crypto.randomInt(90_000),
  ]);
  return `Workshops ${run}`;
}

async function signedIn(token: string): Promise<BrowserContext> {
  const context = await newContext(browser, { baseURL, lang: "en" });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return context;
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Picks the option reading exactly `option` in an antd Select ("Host", not "No host"). */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await pick(page, option);
}

/** The open dropdown's option: a dropdown closed a moment ago may still be in the page, sliding away. */
const pick = (page: Page, option: string) =>
  page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden):not([class*="-leave"]) .ant-select-item-option:visible')
    .filter({ hasText: new RegExp(`^\\s*${option.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`) })
    .first()
    .click();

/** Whether a streaming turn's typing indicator, and a reply still growing, were ever on the page. */
async function watchStreaming(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __seen: { typing: boolean; partial: boolean } };
    w.__seen = { typing: false, partial: false };
    new MutationObserver(() => {
      if (document.querySelector("[data-testid=run-typing]")) w.__seen.typing = true;
      const growing = document.querySelector<HTMLElement>("[data-testid=run-message][data-status=streaming] [data-testid=run-message-text]");
      if (growing?.innerText.trim()) w.__seen.partial = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Gives the topic, answers as Bob when asked, and waits for the host to end the run. */
async function runThrough(page: Page, answer: string, shots: string) {
  await page.locator("[data-testid=run-topic-input]").fill(TOPIC);
  await watchStreaming(page);
  await page.locator("[data-testid=run-topic-input-send]").click();
  await page.locator("[data-testid=run-topic]", { hasText: TOPIC }).waitFor();
  const alice = page.locator("[data-testid=run-message][data-role=Alice]").first();
  await alice.and(page.locator("[data-status=done]")).waitFor({ timeout: 30_000 });
  expect(await alice.locator("[data-testid=run-message-text]").innerText()).toContain("public beta");
  const turn = page.locator("[data-testid=run-your-turn]");
  await turn.waitFor({ timeout: 30_000 });
  expect(await turn.innerText()).toContain("It's your turn as Bob");
  // What the host asked of the person is theirs to read, a consumer's too.
  expect(await page.locator("[data-testid=run-your-instruction]").innerText()).toBe("The host asks you: Say which plan you prefer");
  await shot(page, `${shots}-your-turn`);
  await page.locator("[data-testid=run-say]").fill(answer);
  await page.locator("[data-testid=run-say]").press("Enter");
  await page.locator("[data-testid=run-message][data-role=Bob]", { hasText: answer }).waitFor();
  await page.locator("[data-testid=run-ended][data-reason=host]").waitFor({ timeout: 30_000 });
  expect(await page.locator("[data-testid=run-end-reason]").innerText()).toBe("The host ended the discussion: its goal was reached.");
  const seen = await page.evaluate(() => (window as unknown as { __seen: { typing: boolean; partial: boolean } }).__seen);
  expect(seen).toEqual({ typing: true, partial: true });
  await shot(page, `${shots}-ended`);
}

beforeAll(async () => {
  browser = await launchBrowser();
  fake = await startFakeOpenai();
  dev = await makeAccount();
  await fundAccount(dev.id);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

describe("a workshop, from its editor to a phone", () => {
  it("is made on its pages, refused without a host, saved, and run: the host picks, replies stream, the person answers, the host ends it", async () => {
    await makeAgent("Host AI", { reply: hostAnswer });
    await makeAgent("Planner", {
      reply: () => "Let us launch with a **public beta** in two cities, then open it everywhere.",
      stream: { chunks: 12, delayMs: 150 },
    });
    const context = await signedIn(dev.token);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await open(page, "/workshopList");
    await page.locator("[data-testid=workshops-empty]").waitFor();
    await shot(page, "list-empty");
    await page.locator("[data-testid=workshops-empty-create]").click();
    await page.waitForURL(/\/createWork$/);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=workshop-name]").fill(`Launch panel ${run}`);
    await page.locator("[data-testid=workshop-description]").fill("A host, a planner and you discuss a product launch.");
    await page.locator("[data-testid=workshop-info-save]").click();
    await page.waitForURL(/\/CreatedWorkshop\?id=/);
    workshopId = new URL(page.url()).searchParams.get("id")!;
    await page.locator("[data-testid=workshop-editor]").waitFor();

    // Roles: the starter agent role becomes the host; an agent role and the person's role are added.
    const roles = page.locator("[data-testid=workshop-role]");
    await roles.nth(0).locator("[data-testid=workshop-role-name]").fill("Host");
    await choose(page, roles.nth(0).locator("[data-testid=workshop-role-agent]"), "Host AI");
    await page.locator("[data-testid=workshop-add-agent-role]").click();
    await roles.nth(1).locator("[data-testid=workshop-role-name]").fill("Alice");
    await choose(page, roles.nth(1).locator("[data-testid=workshop-role-agent]"), "Planner");
    await page.locator("[data-testid=workshop-add-user-role]").click();
    await roles.nth(2).locator("[data-testid=workshop-role-name]").fill("Bob");
    expect(await page.locator("[data-testid=workshop-add-user-role]").isDisabled()).toBe(true);

    // The node: on-demand speech between Alice and Bob, repeats allowed so the host is asked each turn.
    const node = page.locator("[data-testid=workshop-node]").first();
    await node.locator("[data-testid=workshop-node-name]").fill("Discussion");
    await node.getByText("On-demand speech").click();
    await node.locator("[data-testid=workshop-node-roles]").click();
    for (const name of ["Alice", "Bob"]) await pick(page, name);
    await page.keyboard.press("Escape");
    await node.locator("[data-testid=workshop-node-repeat]").click();
    // A content read from a file: the server answers its text, titled by the file's name.
    await node
      .locator("[data-testid=workshop-node-contents] input[type=file]")
      .setInputFiles({ name: "launch-brief.txt", mimeType: "text/plain", buffer: Buffer.from("Budget: 20k. Audience: students and teachers.\n") });
    await node.locator("[data-testid=workshop-content-title]").first().waitFor();
    expect(await node.locator("[data-testid=workshop-content-title]").first().inputValue()).toBe("launch-brief");
    expect(await node.locator("[data-testid=workshop-content-counter]").innerText()).toContain("45 / 30,000");

    // No host yet: the browser refuses with the server's message, and nothing is sent.
    const saves: string[] = [];
    page.on("request", (r) => r.url().includes("workshops.saveDefinition") && saves.push(r.url()));
    await page.locator("[data-testid=workshop-save]").first().click();
    await node.locator(".ant-form-item-explain-error", { hasText: "On-demand speech needs a host" }).waitFor();
    expect(saves).toEqual([]);
    await shot(page, "editor-refused");

    await choose(page, node.locator("[data-testid=workshop-node-host]"), "Host");
    await page.locator("[data-testid=workshop-save]").first().click();
    await toast(page, "Saved successfully");
    expect(saves).toHaveLength(1);
    await shot(page, "editor-saved");

    await page.locator("[data-testid=workshop-run-button]").first().click();
    await page.waitForURL(/\/workshop\?id=/);
    await page.locator("[data-testid=run-role]").nth(2).waitFor();
    expect(await page.locator("[data-testid=run-role]").evaluateAll((els) => els.map((e) => e.getAttribute("data-name")))).toEqual(["Host", "Alice", "Bob"]);
    await runThrough(page, "I prefer the beta, but start with students.", "debug");
    // The developer sees what the host asked of each speaker.
    expect(await page.locator("[data-testid=run-instruction]").first().innerText()).toBe("Host: Open with one concrete idea");
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it("is published with the app form's workshop picker, and an edit waits for a sync by hand", async () => {
    const category = await ensureCategory();
    const context = await signedIn(dev.token);
    const page = await context.newPage();
    await open(page, `/CreatedWorkshop?id=${workshopId}`);
    await page.locator("[data-testid=workshop-publish-new]").click();
    await page.waitForURL(/\/create_app\?type=workshop&workshop_id=/);
    await page.waitForSelector("html[data-hydrated]");
    // The picker starts on this workshop; there is no agent to pick for a workshop app.
    expect(await page.locator("[data-testid=app-workshop]").innerText()).toContain(`Launch panel ${run}`);
    expect(await page.locator("[data-testid=app-agent]").count()).toBe(0);
    await page.locator("[data-testid=app-icon] input[type=file]").setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: makePng(300, 300, 90) });
    await page.waitForFunction(() => /^\/files\/images\/.+\.png$/.test(document.querySelector("[data-testid=app-icon] img")?.getAttribute("src") ?? ""));
    await choose(page, page.locator("[data-testid=app-category]"), category);
    await page.locator("[data-testid=app-tags] input").fill(`panel${run}`);
    await page.keyboard.press("Enter");
    await shot(page, "app-form");
    await page.locator("[data-testid=app-save]").click();
    await page.waitForURL(/\/my_app\?type=workshop/);
    const row = page.locator("[data-testid=my-app-row]").first();
    appId = (await row.getAttribute("data-app-id"))!;
    expect(appId).toBeTruthy();
    const admin = await makeAccount(["platform_admin"]);
    await approveApp({ id: admin.id, roles: ["platform_admin"] as never[], enterpriseId: null }, { id: appId });

    // The editor lists the app, in sync; a saved edit shows as a change until synced.
    await open(page, `/CreatedWorkshop?id=${workshopId}`);
    const app = page.locator(`[data-testid=workshop-app][data-app-id="${appId}"]`);
    await app.and(page.locator("[data-in-sync=true]")).waitFor();
    const rounds = page.locator("input[data-testid=workshop-node-rounds], [data-testid=workshop-node-rounds] input").first();
    await rounds.fill("8");
    await page.locator("[data-testid=workshop-save]").first().click();
    await toast(page, "Saved successfully");
    await app.and(page.locator("[data-in-sync=false]")).waitFor();
    expect(await app.locator("[data-testid=workshop-app-changes]").innerText()).toContain("Nodes changed: Discussion");
    await shot(page, "editor-app-changed");
    await app.locator("[data-testid=workshop-app-sync]").click();
    await page.locator("[data-testid=workshop-sync-changes]", { hasText: "Nodes changed: Discussion" }).waitFor();
    await clickWhenSettled(page, "[data-testid=workshop-sync-ok]");
    await app.and(page.locator("[data-in-sync=true]")).waitFor();
    expect(await app.locator("[data-testid=workshop-app-version]").innerText()).toBe("Version 2");
    await context.close();
  }, 60_000);

  it("runs for a signed-out visitor on a 375 px phone from the app's share link, with nothing scrolling sideways", async () => {
    const context = await browser.newContext({ ...PHONE, baseURL });
    await context.addCookies([{ name: "lang", value: "en", url: baseURL }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page, `/share?app=${appId}`);
    expect(new URL(page.url()).pathname).toMatch(/^(\/mobi)?\/workshop$/);
    expect(new URL(page.url()).searchParams.get("app")).toBe(appId);
    await page.locator("[data-testid=run-role]").nth(2).waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shot(page, "phone-start");
    await runThrough(page, "Students first, then everyone.", "phone");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // A consumer does not see the host's instructions.
    expect(await page.locator("[data-testid=run-instruction]").count()).toBe(0);

    // The run is among the visitor's earlier ones, and reopens.
    await page.locator("[data-testid=run-history-open]").click();
    await page.locator("[data-testid=run-history-item]", { hasText: TOPIC }).first().waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shot(page, "phone-history");
    await page.locator("[data-testid=run-history-new]").click();
    await page.locator("[data-testid=run-topic-input]").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
