// The debug chat and history in a real browser, against the loopback fake upstream
// (3 reasoning chunks, then 6 content chunks; `[[tool:NAME {args}]]` makes it call a tool and
// `[[say:TEXT]]` makes it answer TEXT). An agent with a required variable and the current_time
// plugin is made through tRPC; the user fills the variable, chats, sees the thinking, the answer
// and the tool step, likes the reply, and continues the dialogue from the history. Also: Stop,
// a required variable left empty, and phone width. CHAT_SHOTS=<dir> also saves screenshots.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clickWhenSettled, launchBrowser, newContext } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";
import { fundE2eAccount } from "../helpers/money";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const SEND = "/api/v1/ai_message/send_message/sse";
const SHOTS = process.env.CHAT_SHOTS;

/** An account with a live session, made in the database (login has its own tests). */
async function makeAccount(account: string) {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, updated_at) VALUES ($1, $2, $2, now())`, [id, account]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  // Every reply costs the channel fee: gift credit as the experience bonus would give.
  await fundE2eAccount(inject("databaseUrl"), id);
  return { id, token };
}

async function signedInContext(token: string, opts: { lang?: string; phone?: boolean } = {}): Promise<BrowserContext> {
  const context = opts.phone
    ? await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL })
    : await newContext(browser, { baseURL, lang: opts.lang ?? "en" });
  await context.addCookies([
    { name: "zl_session", value: token, url: baseURL },
    { name: "lang", value: opts.lang ?? "en", url: baseURL },
  ]);
  return context;
}

/** Makes the agent the way the builder saves it: a tRPC mutation from the signed-in page. */
async function createAgent(page: Page, input: Record<string, unknown>): Promise<string> {
  return page.evaluate(async (agent) => {
    const csrf = decodeURIComponent(/(?:^|;\s*)zl_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? "");
    const res = await fetch("/trpc/agents.create", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ json: agent }),
    });
    const body = await res.json();
    if (!body?.result?.data?.json?.id) throw new Error(`agents.create: ${JSON.stringify(body)}`);
    return body.result.data.json.id as string;
  }, input);
}

async function ready(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

/** Records the order in which the reasoning text and the answer first appear. */
async function watchOrder(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __order: string[] };
    w.__order = [];
    const seen = (id: string) => {
      const replies = document.querySelectorAll("[data-testid=assistant-message]");
      if (!w.__order.includes(id) && replies[replies.length - 1]?.querySelector(`[data-testid=${id}]`)) w.__order.push(id);
    };
    new MutationObserver(() => ["reasoning-text", "answer"].forEach(seen)).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const lastReply = (page: Page) => page.locator("[data-testid=assistant-message]").last();
const sendText = async (page: Page, text: string) => {
  await page.locator("[data-testid=message-input]").fill(text);
  await page.locator("[data-testid=message-input]").press("Enter");
};
const waitDone = (page: Page) => page.locator("[data-testid=assistant-message]").last().and(page.locator("[data-status=done]")).waitFor();

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

let owner: { id: string; token: string };
let agentId = "";
let dialogueId = "";

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await makeAccount(`chat_${run}`);
});
afterAll(() => browser?.close());

describe("debug chat and history", () => {
  it("refuses a required variable left empty without sending, then chats: thinking, answer, tool step, like that persists", async () => {
    const context = await signedInContext(owner.token);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await ready(page, "/dialogue");
    agentId = await createAgent(page, {
      name: "E2E Bot",
      introduction: "An agent for the end-to-end chat test",
      model_key: inject("chatModelKey"),
      prompt: "You help people in {{city}}.",
      variables: [{ name: "city", prompt: "Which city?", required: true, type: "fill" }],
      plugins: ["current_time"],
      show_reasoning: true,
      welcome_message: "Hello! I am the **E2E** agent. [Docs](https://example.com/docs)",
    });
    await ready(page, `/dialogue?agent_id=${agentId}`);
    expect(await page.locator("[data-testid=agent-name]").innerText()).toBe("E2E Bot");
    expect(await page.locator("[data-testid=welcome] strong").innerText()).toBe("E2E");
    const docLink = page.locator("[data-testid=welcome] a");
    expect(await docLink.getAttribute("target")).toBe("_blank");
    expect(await docLink.getAttribute("rel")).toContain("noopener");

    // A required variable left empty: the browser refuses, with the server's message, and sends nothing.
    const posted: string[] = [];
    page.on("request", (r) => r.url().includes(SEND) && posted.push(r.url()));
    await sendText(page, "Hello there");
    await page.getByText("Fill in this required variable").waitFor();
    expect(posted).toEqual([]);
    expect(await page.locator("[data-testid=message-input]").inputValue()).toBe("Hello there");

    // Fill it and send: the thinking streams first, then the answer, and the thinking closes.
    await page.locator("[data-testid=variable-city]").fill("Shanghai");
    await watchOrder(page);
    await page.locator("[data-testid=message-input]").press("Enter");
    await waitDone(page);
    expect(posted).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { __order: string[] }).__order)).toEqual(["reasoning-text", "answer"]);
    const reply = lastReply(page);
    expect(await reply.locator("[data-testid=answer]").innerText()).toContain("word0");
    expect(await reply.locator("[data-testid=reasoning]").getAttribute("data-open")).toBe("false");
    await reply.locator("[data-testid=reasoning-toggle]").click();
    expect(await reply.locator("[data-testid=reasoning-text]").innerText()).toContain("think 0");
    await page.waitForURL(/dialogue_id=/);
    dialogueId = new URL(page.url()).searchParams.get("dialogue_id")!;
    expect(dialogueId).toBeTruthy();

    // A tool step: the model calls current_time, the card shows it, and the answer follows.
    await sendText(page, "What time is it? [[tool:current_time {}]]");
    await waitDone(page);
    const toolReply = lastReply(page);
    const step = toolReply.locator("[data-testid=tool-step][data-tool=current_time]");
    await step.waitFor();
    await step.locator("[data-testid=tool-step-toggle]").click();
    await step.locator("[data-testid=tool-step-body]").waitFor();
    expect(await toolReply.locator("[data-testid=answer]").innerText()).toContain("current_time");
    await shoot(page, "dialogue-desktop-en");

    // Like the reply; it stays liked after a reload.
    const feedback = page.waitForResponse((r) => r.url().includes("/api/v1/ai_message/feedback"));
    await toolReply.locator("[data-testid=like]").click();
    expect((await (await feedback).json()).status).toBe(200);
    expect(await toolReply.locator("[data-testid=like]").getAttribute("aria-pressed")).toBe("true");
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=assistant-message]").nth(1).waitFor();
    expect(await page.locator("[data-testid=user-message]").count()).toBe(2);
    expect(await lastReply(page).locator("[data-testid=like]").getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator("[data-testid=variable-city]").inputValue()).toBe("Shanghai");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens the dialogue from the history, marked interrupted after a long break, and continues it", async () => {
    expect(dialogueId).toBeTruthy();
    await sql("UPDATE dialogue SET last_message_at = now() - interval '3 hours' WHERE id = $1", [dialogueId]);
    const context = await signedInContext(owner.token);
    const page = await context.newPage();
    await ready(page, "/history_qa");
    const row = page.locator(`[data-testid=dialogue-row][data-dialogue-id="${dialogueId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain("E2E Bot");
    await row.locator("[data-testid=interrupted-tag]").waitFor();
    await shoot(page, "history-desktop-en");
    await row.locator("[data-testid=dialogue-open]").click();
    await page.waitForURL((u) => u.pathname === "/dialogue" && u.searchParams.get("dialogue_id") === dialogueId && u.searchParams.get("agent_id") === agentId);
    await page.locator("[data-testid=interrupted]").waitFor();
    await page.locator("[data-testid=assistant-message]").nth(1).waitFor();
    await page.locator("[data-testid=continue-dialogue]").click();
    await page.locator("[data-testid=message-input]").fill("Thanks! [[say:You are **very** welcome]]");
    await page.locator("[data-testid=message-input]").press("Enter");
    await waitDone(page);
    expect(await lastReply(page).locator("[data-testid=answer] strong").innerText()).toBe("very");
    expect(await page.locator("[data-testid=user-message]").allInnerTexts()).toEqual([
      "Hello there",
      "What time is it? [[tool:current_time {}]]",
      "Thanks! [[say:You are **very** welcome]]",
    ]);
    expect(await page.locator("[data-testid=assistant-message]").count()).toBe(3);
    expect(new URL(page.url()).searchParams.get("dialogue_id")).toBe(dialogueId);
    const [{ count }] = await sql("SELECT count(*)::int AS count FROM chat_message WHERE dialogue_id = $1", [dialogueId]);
    expect(count).toBe(6);

    // Regenerate the last reply: the new one takes its place, the old one stays one click away.
    await lastReply(page).locator("[data-testid=regenerate]").click();
    await waitDone(page);
    expect(await page.locator("[data-testid=assistant-message]").count()).toBe(3);
    expect(await lastReply(page).locator("[data-testid=version-pager]").innerText()).toContain("2/2");
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await lastReply(page).locator("[data-testid=version-pager]").waitFor();
    expect(await page.locator("[data-testid=assistant-message]").count()).toBe(3);
    expect(await lastReply(page).locator("[data-testid=version-pager]").innerText()).toContain("2/2");
    await context.close();
  });

  it("reads a document in the chat, then renames and deletes the dialogue in the history", async () => {
    // A basic edition has one agent: a second account makes the document agent.
    const reader = await makeAccount(`chatdoc_${run}`);
    const context = await signedInContext(reader.token);
    const page = await context.newPage();
    await ready(page, "/dialogue");
    const docAgent = await createAgent(page, {
      name: "Doc Bot",
      introduction: "Reads documents",
      model_key: inject("chatModelKey"),
      document_reading: true,
      show_reasoning: false,
    });
    await ready(page, `/dialogue?agent_id=${docAgent}`);
    await page
      .locator("[data-testid=document-input]")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Zelin notes: the launch is on Friday.") });
    await page.locator("[data-testid=document-chip]").getByText("notes.txt").waitFor();
    const sent = page.waitForRequest((r) => r.url().includes(SEND));
    await sendText(page, "What does it say? [[say:It says Friday]]");
    expect((await sent).postDataJSON().ufids).toMatch(/^\["[^"]+"\]$/);
    await waitDone(page);
    expect(await lastReply(page).locator("[data-testid=answer]").innerText()).toBe("It says Friday");
    expect(await lastReply(page).locator("[data-testid=reasoning]").count()).toBe(0);
    await page.waitForURL(/dialogue_id=/);
    const id = new URL(page.url()).searchParams.get("dialogue_id")!;

    // Markdown: a fenced code block with its copy button, and a GFM table.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await sendText(page, "Show me [[say:Here:\n\n```python\nprint(1)\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n]]");
    await waitDone(page);
    const code = lastReply(page).locator("[data-testid=code-block]");
    expect(await code.locator("code").innerText()).toBe("print(1)");
    expect(await code.locator(".chat-code__lang").innerText()).toBe("python");
    expect(await lastReply(page).locator("table td").allInnerTexts()).toEqual(["1", "2"]);
    await code.locator("[data-testid=code-copy]").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("print(1)");

    await ready(page, "/history_qa");
    const row = page.locator(`[data-testid=dialogue-row][data-dialogue-id="${id}"]`);
    await row.locator("[data-testid=dialogue-rename]").click();
    await page.locator("[data-testid=rename-input]").fill("Launch notes");
    await clickWhenSettled(page, "[data-testid=rename-ok]");
    await row.locator("[data-testid=dialogue-title]").getByText("Launch notes").waitFor();
    await row.locator("[data-testid=dialogue-delete]").click();
    await clickWhenSettled(page, "[data-testid=dialogue-delete-ok]");
    await row.waitFor({ state: "detached" });
    await page.reload();
    await page.locator("[data-testid=history-empty]").waitFor();
    expect(await page.locator("[data-testid=dialogue-row]").count()).toBe(0);
    await context.close();
  });

  it("stops a reply while it streams", async () => {
    const context = await signedInContext(owner.token);
    const page = await context.newPage();
    // The fake upstream is done in a fifth of a second; the page reads the stream in small, slow
    // pieces (cut anywhere, as a slow network would) so there is time to press Stop midway.
    await page.addInitScript(() => {
      const original = window.fetch;
      window.fetch = async (input, init) => {
        const res = await original(input, init);
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        if (!url.includes("/send_message/sse") || !res.body) return res;
        const slow = new TransformStream<Uint8Array, Uint8Array>({
          async transform(chunk, out) {
            for (let i = 0; i < chunk.length; i += 48) {
              await new Promise((r) => setTimeout(r, 120));
              out.enqueue(chunk.slice(i, i + 48));
            }
          },
        });
        return new Response(res.body.pipeThrough(slow), { status: res.status, headers: res.headers });
      };
    });
    await ready(page, `/dialogue?agent_id=${agentId}`);
    await page.locator("[data-testid=variable-city]").fill("Lisbon");
    await sendText(page, "Tell me a long story");
    const reply = lastReply(page);
    await reply.locator("[data-testid=reasoning]").waitFor();
    const stopRequest = page.waitForRequest((r) => r.url().includes("/api/v1/ai_message/stop"));
    await page.locator("[data-testid=stop]").click();
    const id = await reply.getAttribute("data-message-id");
    expect(id).toBeTruthy();
    expect((await stopRequest).postDataJSON()).toEqual({ message_id: id });
    await page.locator("[data-testid=assistant-message][data-status=stopped]").waitFor();
    await reply.locator("[data-testid=reply-stopped]").waitFor();
    await page.locator("[data-testid=send]").waitFor();
    expect(await reply.locator("[data-testid=answer]").count()).toBe(0);
    await context.close();
  });

  it("shows a reply that failed review, and an input refused for sensitive words", async () => {
    const setWords = (words: string[]) =>
      fetch(`${baseURL}/api/v1/admin/sensitive_words`, {
        method: "PUT",
        headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
        body: JSON.stringify({ words }),
      }).then((r) => r.json());
    // The time tool's answer names the weekday; the question does not, so only the output is caught.
    expect((await setWords(["weekday", "forbiddenx"])).status).toBe(200);
    const context = await signedInContext(owner.token);
    try {
      const page = await context.newPage();
      await ready(page, `/dialogue?agent_id=${agentId}`);
      await page.locator("[data-testid=variable-city]").fill("Porto");
      await sendText(page, "What time is it now? [[tool:current_time {}]]");
      await page.locator("[data-testid=assistant-message][data-status=censored]").waitFor();
      expect(await lastReply(page).locator("[data-testid=answer]").count()).toBe(0);
      expect(await lastReply(page).locator("[data-testid=censored]").innerText()).not.toBe("");
      await page.locator("[data-testid=send]").waitFor();
      await sendText(page, "tell me about forbiddenx");
      await page.locator("[data-testid=assistant-message][data-status=failed]").waitFor();
      expect(await lastReply(page).locator("[data-testid=reply-error]").innerText()).toContain("Input contains sensitive words");
      await shoot(page, "dialogue-censored-en");
    } finally {
      await setWords([]);
      await context.close();
    }
  });

  it("fits a phone-width screen: no sideways scroll, the input at the bottom", async () => {
    for (const lang of ["zh_hans", "en"]) {
      const context = await signedInContext(owner.token, { lang, phone: true });
      const page = await context.newPage();
      await ready(page, `/dialogue?agent_id=${agentId}&dialogue_id=${dialogueId}`);
      await page.locator("[data-testid=assistant-message]").nth(2).waitFor();
      await shoot(page, `dialogue-phone-${lang}`);
      const fit = await page.evaluate(() => {
        const input = document.querySelector("[data-testid=chat-input]")!.getBoundingClientRect();
        return { scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth, inputBottom: input.bottom, height: window.innerHeight };
      });
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.width);
      expect(fit.inputBottom).toBeLessThanOrEqual(fit.height);
      expect(fit.inputBottom).toBeGreaterThan(fit.height - 80);
      await ready(page, "/history_qa");
      await page.locator("[data-testid=dialogue-row]").first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shoot(page, `history-phone-${lang}`);
      if (lang === "zh_hans" && SHOTS) {
        const desk = await signedInContext(owner.token, { lang });
        const p = await desk.newPage();
        await ready(p, `/dialogue?agent_id=${agentId}&dialogue_id=${dialogueId}`);
        await p.locator("[data-testid=assistant-message]").nth(2).waitFor();
        await shoot(p, "dialogue-desktop-zh_hans");
        await ready(p, "/history_qa");
        await p.locator("[data-testid=dialogue-row]").first().waitFor();
        await shoot(p, "history-desktop-zh_hans");
        await desk.close();
      }
      await context.close();
    }
  });
});
