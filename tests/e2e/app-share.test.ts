// Sharing and app data in Chromium: the owner opens /application, sees the day's numbers,
// opens the share panel (the link carries touser, its QR code decodes to it, the embed snippets
// name the app), makes a poster whose downloaded PNG holds a QR code decoding to the same link, and
// exports the dialogues to an xlsx the worker writes and the page downloads. Another account gets
// the not-found page for the same app.
import crypto from "node:crypto";
import fs from "node:fs";
import ExcelJS from "exceljs";
import jsQR from "jsqr";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sql } from "../helpers/e2e-db";
import { launchBrowser, newContext } from "../helpers/browser";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");
const cuid = () => `e2e${crypto.randomBytes(10).toString("hex")}`;

async function makeSignedIn(account: string, lang = "en"): Promise<{ context: BrowserContext; id: string }> {
  const id = cuid();
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, updated_at) VALUES ($1, $2, $2, '{individual_developer}', 'flagship', now() + interval '30 days', now())`,
    [id, account],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return { context, id };
}

/** An app on the shelf with two dialogues of today (an H5 visitor's with a liked reply, an API caller's). */
async function seedApp(ownerId: string, name: string) {
  const appId = cuid();
  await sql(
    `INSERT INTO app (id, owner_account_id, type, state, name, icon_url, introduction, tags, input_modes, output_modes, updated_at) VALUES ($1, $2, 'h5', 'on_shelf', $3, '', 'Answers questions about returns.', '{}', '{text}', '{text}', now())`,
    [appId, ownerId, name],
  );
  for (const [source, liked] of [
    ["h5", true],
    ["api", false],
  ] as const) {
    const dialogueId = cuid();
    await sql(`INSERT INTO dialogue (id, app_id, source, visitor_id, title, created_at, last_message_at) VALUES ($1, $2, $3, $4, $5, now(), now())`, [
      dialogueId,
      appId,
      source,
      `visitor-${source}-${run}`,
      `${source} question`,
    ]);
    await sql(
      `INSERT INTO chat_message (id, dialogue_id, role, content, feedback, created_at) VALUES ($1, $2, 'user', 'How do returns work?', 'none', now()), ($3, $2, 'assistant', 'Within seven days.', $4, now() + interval '1 second')`,
      [cuid(), dialogueId, cuid(), liked ? "liked" : "none"],
    );
  }
  return appId;
}

async function open(page: Page, url: string) {
  const res = await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
  return res;
}

/** Decodes the QR code in PNG bytes: the browser decodes the picture, jsQR reads the code. */
async function decodeQr(page: Page, png: Buffer) {
  const pixels = await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = document.createElement("canvas");
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext("2d")!;
    ctx.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, height: bitmap.height, data: Array.from(ctx.getImageData(0, 0, bitmap.width, bitmap.height).data) };
  }, png.toString("base64"));
  const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
  return { text: code?.data ?? null, width: pixels.width, height: pixels.height };
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("sharing an app and reading its data", () => {
  it("the owner shares by link, QR code, embed and poster, and exports the dialogues", async () => {
    const { context, id: ownerId } = await makeSignedIn(`share_${run}`);
    const name = `Returns helper ${run}`;
    const appId = await seedApp(ownerId, name);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page, `/application?id=${appId}`).catch((err) => {
      throw new Error(`${err}\npage errors: ${errors.join("\n")}`);
    });
    await expect.poll(() => page.locator("[data-testid=appdata-total-dialogues]").getAttribute("data-value")).toBe("2");
    expect(await page.locator("[data-testid=appdata-total-messages]").getAttribute("data-value")).toBe("4");
    expect(await page.locator("[data-testid=appdata-total-liked]").getAttribute("data-value")).toBe("1");
    expect(await page.locator("[data-testid=appdata-dialogue-row]").count()).toBe(2);

    // The share panel: the link names the sharer as touser; the QR code says the same.
    await page.locator("[data-testid=appdata-share]").click();
    const linkField = page.locator("input[data-testid=share-link]");
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toBe(`${baseURL}/share?app=${appId}&touser=${ownerId}`);
    await page.locator("img[data-testid=share-qr]").waitFor();
    const qrSrc = (await page.locator("img[data-testid=share-qr]").getAttribute("src"))!;
    expect(qrSrc.startsWith("data:image/png;base64,")).toBe(true);
    expect((await decodeQr(page, Buffer.from(qrSrc.split(",")[1], "base64"))).text).toBe(link);
    const iframe = await page.locator("textarea[data-testid=share-embed-iframe]").inputValue();
    expect(iframe).toContain(`/mobi/dialogue?app=${appId}&amp;embed=1&amp;touser=${ownerId}`);
    expect(iframe).toContain(`title="${name}"`);
    await page.locator(".ant-tabs-tab", { hasText: "Floating button" }).click();
    expect(await page.locator("textarea[data-testid=share-embed-script]").inputValue()).toContain(`src="${baseURL}/embed.js" data-app="${appId}"`);
    const embedJs = await page.request.get(`${baseURL}/embed.js`);
    expect(embedJs.status()).toBe(200);

    // The poster: change the text and the QR position, download, and scan what was saved.
    await page.locator("[data-testid=share-poster]").click();
    await page.waitForURL(/\/posterEditor\?app=/);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=poster-title]").fill("Ask me about returns");
    await page.locator("[data-testid=poster-bg-sunset]").click();
    await page.locator("[data-testid=poster-preset-bottom_right]").click();
    await expect.poll(() => page.locator("[data-testid=poster-canvas]").getAttribute("data-qr-x")).toBe(String(750 - 60 - 260));
    const [posterDownload] = await Promise.all([page.waitForEvent("download"), page.locator("[data-testid=poster-download]").click()]);
    expect(posterDownload.suggestedFilename()).toMatch(/poster\.png$/);
    const poster = fs.readFileSync((await posterDownload.path())!);
    expect(poster.subarray(1, 4).toString()).toBe("PNG");
    const scanned = await decodeQr(page, poster);
    expect([scanned.width, scanned.height]).toEqual([750, 1334]);
    expect(scanned.text).toBe(link);

    // Export: a job, progress on the page, then the file.
    await open(page, `/application?id=${appId}`);
    await page.locator("[data-testid=appdata-export-start]").click();
    const item = page.locator("[data-testid=appdata-export-item]").first();
    await expect.poll(() => item.getAttribute("data-state"), { timeout: 30_000 }).toBe("done");
    const [xlsxDownload] = await Promise.all([page.waitForEvent("download"), item.locator("[data-testid=appdata-export-download]").click()]);
    expect(xlsxDownload.suggestedFilename()).toMatch(/\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync((await xlsxDownload.path())!) as never);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(5); // the header and four messages
    expect(sheet.getRow(1).getCell(1).text).toBe("Dialogue ID");
    expect([2, 3, 4, 5].map((r) => sheet.getRow(r).getCell(7).text)).toEqual([
      "How do returns work?",
      "Within seven days.",
      "How do returns work?",
      "Within seven days.",
    ]);
    await context.close();

    // Someone else: the same address is not found, and so is the export's file.
    const other = await makeSignedIn(`share_other_${run}`);
    const otherPage = await other.context.newPage();
    const res = await otherPage.goto(`/application?id=${appId}`);
    expect(res?.status()).toBe(404);
    const exportId = (await sql("SELECT id FROM app_export WHERE app_id = $1", [appId]))[0].id as string;
    const file = await otherPage.request.get(`${baseURL}/api/v1/app/exports/${exportId}/download`);
    expect(file.status()).toBe(404);
    expect((await file.json()).status).toBe(404001);
    await other.context.close();
    // Ten page flows and an export job: about 50 s on a quiet 2-CPU machine, so more than the default 60 s leaves for a busy one.
  }, 120_000);
});
