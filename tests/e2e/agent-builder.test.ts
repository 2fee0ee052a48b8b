// The agent builder in a real browser: create an agent with a variable and a plugin,
// see the schema's refusals as you type, save and reload, be warned before leaving unsaved
// changes, publish, edit into a new higher draft, submit for review, have a platform
// administrator approve it, and read both versions in the update log. /creator at phone size.
// With AGENT_SHOTS=<dir>, also writes screenshots of every builder page (desktop and phone, zh_hans
// and en) for people to look at.
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
const shotsDir = process.env.AGENT_SHOTS;

/** An account with a live session, made directly in the database (login has its own tests). */
async function makeSignedIn(
  account: string,
  roles: string[],
  opts: { phone?: boolean; lang?: string } = {},
): Promise<{ context: BrowserContext; token: string }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $2, $3::"Role"[], now())`, [id, account, roles]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang: opts.lang ?? "en", phone: opts.phone });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return { context, token };
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

/**
 * Unfolds one of the editor's sections (nothing to do when it is open) and waits until it has
 * finished opening: a click on a field while the panel still grows can land on nothing.
 */
async function openSection(page: Page, key: string) {
  const label = page.locator(`[data-testid=section-head-${key}]`);
  const head = page.locator(".ant-collapse-header", { has: label });
  if ((await head.getAttribute("aria-expanded")) !== "true") await head.click();
  await page.locator(".ant-collapse-header[aria-expanded=true]", { has: label }).waitFor();
  // Open, its motion classes gone and nothing in it animating, for three frames in a row.
  await page.locator(".ant-collapse-item", { has: head }).evaluate(async (item) => {
    for (let calm = 0, frames = 0; calm < 3 && frames < 600; frames++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const panel = item.querySelector(":scope > .ant-collapse-panel");
      const settled =
        Boolean(panel?.classList.contains("ant-collapse-panel-active")) &&
        !Array.from(panel!.classList).some((c) => c.startsWith("ant-motion")) &&
        item.getAnimations({ subtree: true }).length === 0;
      calm = settled ? calm + 1 : 0;
    }
  });
}

const fieldError = (page: Page, text: string) => page.locator(".ant-form-item-explain-error", { hasText: text });
const plugin = (page: Page, name: string) => page.locator("[data-testid=agent-plugins] .ant-checkbox-wrapper", { hasText: name });

/** Clicks a plugin and waits for its box to show the change; a click that changed nothing is made once more. */
async function togglePlugin(page: Page, name: string) {
  const want = !(await plugin(page, name).locator("input").isChecked());
  const shown = plugin(page, name).locator(want ? "input:checked" : "input:not(:checked)");
  await plugin(page, name).click();
  const changed = await shown.waitFor({ state: "attached", timeout: 2_000 }).then(
    () => true,
    () => false,
  );
  if (!changed) await plugin(page, name).click();
  await shown.waitFor({ state: "attached" });
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("agent builder", () => {
  let agentId = "";
  let ownerToken = "";
  const owner = `builder_${run}`;

  it("builds an agent through draft, publish, a new draft, review and the update log", async () => {
    const { context, token } = await makeSignedIn(owner, ["individual_developer"]);
    ownerToken = token;
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    // An empty list invites the first agent.
    await open(page, "/creator");
    await page.locator("[data-testid=creator-empty]").waitFor();
    await page.locator("[data-testid=creator-create]").click();
    await page.waitForURL(/\/agentDetail/);
    await page.waitForSelector("html[data-hydrated]");

    // The name's reading-width rule as you type: nine CJK characters are one too many.
    const name = page.locator("[data-testid=agent-name]");
    await name.fill("一二三四五六七八九");
    await fieldError(page, "An agent name is at most 8 characters").waitFor();
    await name.fill("测试助手");
    await fieldError(page, "An agent name is at most 8 characters").waitFor({ state: "detached" });
    await page.locator("[data-testid=agent-introduction]").fill("Helps write short essays.");
    // The avatar: uploaded with the account avatar's checks, kept as a public picture.
    await page.locator("[data-testid=agent-avatar] input[type=file]").setInputFiles({ name: "bot.png", mimeType: "image/png", buffer: makePng(400, 400, 90) });
    await page.waitForFunction(() =>
      /^\/files\/images\/.+\.png$/.test(document.querySelector("[data-testid=agent-avatar-image] img")?.getAttribute("src") ?? ""),
    );
    await page.locator("[data-testid=agent-update-note]").fill("First version");

    // The chat model of the e2e platform (it calls tools, so plugins are offered).
    await page.locator("[data-testid=section-model] .ant-select").first().click();
    // Search first: the list is virtual, and a platform with many models renders only some.
    await page.keyboard.type(modelKey);
    await page.locator(".ant-select-item-option", { hasText: modelKey }).click();
    // The hint of a model that calls no tools (the editor may have started on one) goes once the choice is taken.
    await page.locator("[data-testid=no-plugins-hint]").waitFor({ state: "detached" });

    // A required variable, inserted into the prompt where the cursor is.
    await openSection(page, "variables");
    await page.locator("[data-testid=variable-add]").click();
    await page.locator("[data-testid=variable-row] [data-testid=variable-name]").fill("topic");
    await page.locator("[data-testid=variable-row] [data-testid=variable-prompt]").fill("What should the essay be about?");
    await page.locator("[data-testid=variable-row] [data-testid=variable-required]").click();
    await page.locator("[data-testid=agent-prompt]").fill("Write an essay about ");
    await page.locator("[data-testid=insert-variable-topic]").click();
    await expect.poll(() => page.locator("[data-testid=agent-prompt]").inputValue()).toBe("Write an essay about {{topic}}");

    // Four plugins are one too many; back to one.
    await openSection(page, "abilities");
    await plugin(page, "Web page reader").locator("input:enabled").waitFor();
    for (const p of ["Web page reader", "HTML interpreter", "Python interpreter", "Current time"]) await togglePlugin(page, p);
    await fieldError(page, "Choose at most 3 plugins at once").waitFor();
    for (const p of ["HTML interpreter", "Python interpreter", "Current time"]) await togglePlugin(page, p);
    await fieldError(page, "Choose at most 3 plugins at once").waitFor({ state: "detached" });

    // A price under 0.1 yuan is refused as you type.
    await openSection(page, "pricing");
    await page.locator("[data-testid=agent-use_price]").fill("0.05");
    await fieldError(page, "A price is 0 or at least 0.1 yuan").waitFor();
    await page.locator("[data-testid=agent-use_price]").fill("0.5");
    await fieldError(page, "A price is 0 or at least 0.1 yuan").waitFor({ state: "detached" });

    await page.locator("[data-testid=agent-save]").click();
    await toast(page, "Draft v1.0.0 saved");
    await page.waitForURL(/\/agentDetail\?id=.+/);
    agentId = new URL(page.url()).searchParams.get("id")!;
    const [stored] = await sql("SELECT v.state, v.config FROM agent_version v WHERE v.agent_id = $1", [agentId]);
    expect(stored.state).toBe("draft");
    expect(stored.config.avatar_url).toMatch(/^\/files\/images\/.+\.png$/);
    expect(stored.config).toMatchObject({
      name: "测试助手",
      model_key: modelKey,
      plugins: ["web_reader"],
      use_price_micro: 500_000,
      variables: [{ name: "topic", required: true }],
    });

    // Reloaded, the editor shows what was saved.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    expect(await name.inputValue()).toBe("测试助手");
    expect(await page.locator("[data-testid=variable-row] [data-testid=variable-name]").inputValue()).toBe("topic");
    expect(await plugin(page, "Web page reader").locator("input").isChecked()).toBe(true);
    expect(await page.locator("[data-testid=agent-prompt]").inputValue()).toBe("Write an essay about {{topic}}");
    await openSection(page, "versions");
    await page.locator("[data-testid=version-item][data-version='1.0.0'][data-state=draft]").waitFor();

    // Unsaved changes: leaving inside the app asks first; closing the tab is warned about too.
    await page.locator("[data-testid=agent-introduction]").fill("Helps write short essays, with an outline first.");
    await page.locator("[data-testid=unsaved-tag]").waitFor();
    await page.locator(".console__sider .ant-menu-item", { hasText: "My agents" }).click();
    await page.locator(".ant-modal-confirm-title", { hasText: "You have unsaved changes. Leave anyway?" }).waitFor();
    await page.locator("[data-testid=leave-cancel]").click();
    expect(new URL(page.url()).pathname).toBe("/agentDetail");
    expect(await page.evaluate(() => !window.dispatchEvent(new Event("beforeunload", { cancelable: true })))).toBe(true);

    // Publish saves the change first, then asks.
    await page.locator("[data-testid=agent-publish]").click();
    await clickWhenSettled(page, "[data-testid=publish-ok]");
    await toast(page, "v1.0.0 is published");
    await page.locator("[data-testid=version-item][data-version='1.0.0'][data-state=published]").waitFor();
    // A published version is immutable: the editor says so and offers the next version number.
    await page.locator("[data-testid=readonly-notice]").waitFor();
    expect(await page.locator("[data-testid=agent-version]").inputValue()).toBe("1.0.1");

    // The server's refusal lands on the field it names: a version number that is not higher.
    await page.locator("[data-testid=agent-version]").fill("1.0.0");
    await page.locator("[data-testid=agent-save]").click();
    await page.locator("[data-testid=section-basics] .ant-form-item-explain-error", { hasText: "The new version number must be higher than 1.0.0" }).waitFor();
    await page.locator("[data-testid=agent-version]").fill("1.0.1");

    // Editing it saves a new draft with the higher version; the published one stays as it was.
    await page.locator("[data-testid=agent-update-note]").fill("Second version: outlines");
    await page.locator("[data-testid=agent-details]").fill("Now writes an outline before the essay.");
    await page.locator("[data-testid=agent-save]").click();
    await toast(page, "Draft v1.0.1 saved");
    await page.locator("[data-testid=version-item][data-version='1.0.1'][data-state=draft]").waitFor();
    await page.locator("[data-testid=version-item][data-version='1.0.0'][data-state=published]").waitFor();
    expect(await page.locator("[data-testid=readonly-notice]").count()).toBe(0);

    // Submit for review: the upload page shows what goes to the reviewers.
    await page.locator("[data-testid=agent-submit]").click();
    await page.waitForURL(/\/upload\?id=/);
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.locator("[data-testid=upload-version]").innerText()).toBe("v1.0.1");
    await page.locator("[data-testid=upload-notice]").waitFor();
    await page.locator("[data-testid=upload-submit]").click();
    await page.locator("[data-testid=upload-waiting]").waitFor();

    // Non-administrators cannot open the review page.
    await page.goto("/admin/agent_review");
    await page.waitForURL(/\/no_page_perm$/);

    // A platform administrator approves it.
    const admin = await makeSignedIn(`builderadm_${run}`, ["platform_admin"]);
    const adminPage = await admin.context.newPage();
    adminPage.on("pageerror", (e) => errors.push(e.message));
    await open(adminPage, "/admin/agent_review");
    const item = adminPage.locator("[data-testid=review-item][data-name='测试助手']");
    await item.waitFor();
    expect(await item.getAttribute("data-version")).toBe("1.0.1");
    await item.getByText("Helps write short essays, with an outline first.").waitFor();
    await item.locator("[data-testid=review-approve]").click();
    await clickWhenSettled(adminPage, "[data-testid=review-approve-ok]");
    await toast(adminPage, "Approved");
    await item.waitFor({ state: "detached" });
    await adminPage.locator("[data-testid=review-shelf-tab]").click();
    await adminPage.locator("[data-testid=shelf-item][data-name='测试助手']").waitFor();
    await admin.context.close();

    // The update log lists both versions with their notes, newest first.
    await open(page, `/updateLog?id=${agentId}`);
    const entries = page.locator("[data-testid=update-log-entry]");
    await entries.first().waitFor();
    expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute("data-version")))).toEqual(["1.0.1", "1.0.0"]);
    expect(await entries.locator("[data-testid=update-log-note]").allInnerTexts()).toEqual(["Second version: outlines", "First version"]);

    // My agents shows it on the shelf.
    await open(page, "/creator");
    const card = page.locator(`[data-testid=agent-card][data-agent-id='${agentId}']`);
    await card.locator("[data-testid=agent-state][data-state=on_shelf]").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows /creator at phone size", async () => {
    const context = await newContext(browser, { baseURL, lang: "en", phone: true });
    await context.addCookies([{ name: "zl_session", value: ownerToken, url: baseURL }]);
    const page = await context.newPage();
    await open(page, "/mobi/creator");
    await page.locator(`[data-testid=agent-card][data-agent-id='${agentId}']`).waitFor();
    await page.locator("[data-testid=creator-create]").waitFor();
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The edition allows one agent (basic): no way to ask for another, but a way to get more.
    expect(await page.locator("[data-testid=creator-create]").isDisabled()).toBe(true);
    await page.locator("[data-testid=limit-notice] [data-testid=create-limit-upgrade]", { hasText: "Upgrade to Professional for more" }).waitFor();
    await context.close();
  });

  it("takes a listed agent down with a reason the owner then sees", async () => {
    const admin = await makeSignedIn(`builderadm2_${run}`, ["platform_admin"]);
    const page = await admin.context.newPage();
    await open(page, "/admin/agent_review");
    await page.locator("[data-testid=review-shelf-tab]").click();
    await page.locator("[data-testid=shelf-item][data-name='测试助手'] [data-testid=shelf-take-down]").click();
    // A reason is required.
    await clickWhenSettled(page, "[data-testid=review-reason-ok]");
    await fieldError(page, "A reason has 1 to 200 characters").waitFor();
    await page.locator("[data-testid=review-reason]").fill("Essays copied from a textbook");
    await clickWhenSettled(page, "[data-testid=review-reason-ok]");
    await toast(page, "Agent taken down");
    await page.locator("[data-testid=shelf-item][data-name='测试助手']").waitFor({ state: "detached" });
    await admin.context.close();

    const context = await newContext(browser, { baseURL, lang: "en" });
    await context.addCookies([{ name: "zl_session", value: ownerToken, url: baseURL }]);
    const owner = await context.newPage();
    await open(owner, "/creator");
    const card = owner.locator(`[data-testid=agent-card][data-agent-id='${agentId}']`);
    await card.locator("[data-testid=agent-state][data-state=removed]").waitFor();
    expect(await card.locator("[data-testid=agent-card-removed]").innerText()).toBe("v1.0.1 was removed: Essays copied from a textbook");
    await context.close();
  });

  it("reorders agents on /agentSort", async () => {
    const { context } = await makeSignedIn(`sorter_${run}`, ["individual_developer"]);
    await sql("UPDATE account SET edition = 'professional', edition_expires_at = now() + interval '30 days' WHERE account = $1", [`sorter_${run}`]);
    const page = await context.newPage();
    await open(page, "/creator");
    // Three agents through the same procedure the editor uses.
    for (const name of ["Alpha", "Beta", "Gamma"]) {
      const status = await page.evaluate(
        async ({ name, modelKey }) => {
          const csrf = decodeURIComponent(/(?:^|;\s*)zl_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? "");
          const res = await fetch("/trpc/agents.create?batch=1", {
            method: "POST",
            headers: { "content-type": "application/json", "x-csrf-token": csrf },
            body: JSON.stringify({ 0: { json: { name, introduction: "Sorting test", model_key: modelKey } } }),
          });
          return res.status;
        },
        { name, modelKey },
      );
      expect(status).toBe(200);
    }
    await open(page, "/agentSort");
    const names = () => page.locator("[data-testid=sort-row]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-name")));
    expect(await names()).toEqual(["Alpha", "Beta", "Gamma"]);
    await page.locator("[data-testid=sort-row][data-name=Alpha] [data-testid=sort-down]").click();
    await page.locator("[data-testid=sort-row][data-name=Gamma] [data-testid=sort-up]").click();
    expect(await names()).toEqual(["Beta", "Gamma", "Alpha"]);
    await page.locator("[data-testid=sort-save]").click();
    await page.waitForURL(/\/creator$/);
    await page.locator("[data-testid=agent-card]").first().waitFor();
    expect(await page.locator("[data-testid=agent-card]").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-name")))).toEqual([
      "Beta",
      "Gamma",
      "Alpha",
    ]);
    await context.close();
  });

  // A developer aid, not a check: registered only when AGENT_SHOTS names a folder.
  if (shotsDir)
    it("takes screenshots of the builder pages", async () => {
      fs.mkdirSync(shotsDir!, { recursive: true });
      await sql("UPDATE account SET roles = array_append(roles, 'platform_admin'::\"Role\") WHERE account = $1", [owner]);
      const pages = [
        "/creator",
        `/agentDetail?id=${agentId}`,
        "/agentDetail?id=",
        "/agentSort",
        `/updateLog?id=${agentId}`,
        `/upload?id=${agentId}`,
        "/admin/agent_review",
      ];
      for (const lang of ["zh_hans", "en"]) {
        for (const phone of [false, true]) {
          const context = await newContext(browser, { baseURL, lang, phone });
          await context.addCookies([{ name: "zl_session", value: ownerToken, url: baseURL }]);
          const page = await context.newPage();
          for (const p of pages) {
            await open(page, phone ? `/mobi${p}` : p);
            await page.waitForTimeout(300);
            const file = `${p.replace(/\?.*$/, "").replace(/\W+/g, "_")}${p.endsWith("id=") ? "_new" : ""}-${phone ? "phone" : "desktop"}-${lang}.png`;
            await page.screenshot({ path: path.join(shotsDir!, file), fullPage: true });
          }
          await context.close();
        }
      }
    });
});
