// Avatar and developer certification in a real browser: a user uploads an avatar and
// applies with pictures on /setting; a platform administrator approves on /admin/certifications;
// the user's settings then show the certified state.
import crypto from "node:crypto";
import { sql } from "../helpers/e2e-db";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clickWhenSettled, launchBrowser, newContext, toast } from "../helpers/browser";
import { makePdf, makePng } from "../helpers/png";

let browser: Browser;
const baseURL = inject("webUrl");
const run = crypto.randomBytes(3).toString("hex");

/** An account with a live session, made directly in the database (the login pages have their own tests). */
async function makeSignedIn(account: string, roles: string[]): Promise<BrowserContext> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(`INSERT INTO account (id, account, nickname, roles, updated_at) VALUES ($1, $2, $2, $3::"Role"[], now())`, [id, account, roles]);
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang: "en" });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return context;
}

const png = (name: string, width: number, height: number, shade = 128) => ({ name, mimeType: "image/png", buffer: makePng(width, height, shade) });

/** React has taken over the element (a file chosen or a click made before that would be lost). */
async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps")));
  }, selector);
}

async function imageLoaded(page: Page, selector: string) {
  await page.waitForFunction((s) => {
    const img = document.querySelector<HTMLImageElement>(s);
    return Boolean(img?.complete && img.naturalWidth > 0);
  }, selector);
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("avatar and developer certification", () => {
  it("uploads an avatar, applies, is approved by a platform administrator, and shows as certified", async () => {
    const applicant = `cert_${run}`;
    const user = await makeSignedIn(applicant, ["individual_developer"]);
    const page = await user.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/setting");

    // Avatar: a picture that is too small is refused with the server's message, a good one is shown.
    const avatarInput = page.locator("[data-testid=avatar-card] input[type=file]");
    await hydrated(page, "[data-testid=avatar-card] input[type=file]");
    await avatarInput.setInputFiles(png("small.png", 200, 200));
    await page.getByText("The picture must be at least 300 px and at most 5000 px on each side").waitFor();
    await avatarInput.setInputFiles(png("me.png", 400, 400, 60));
    await page.getByText("Avatar updated").waitFor();
    const avatarImg = "[data-testid=avatar-card] [data-testid=avatar-image] img";
    await imageLoaded(page, avatarImg);
    expect(await page.locator(avatarImg).getAttribute("src")).toMatch(/^\/files\/avatars\/.+\.png$/);
    await page.reload();
    await imageLoaded(page, avatarImg);
    await hydrated(page, "[data-testid=certification-submit]");

    // Certification: the form, with pictures.
    const card = page.locator("[data-testid=certification-card]");
    expect(await card.locator("[data-testid=certification-status]").getAttribute("data-status")).toBe("none");
    await card.locator("[data-testid=certification-real-name]").fill("Li Lei");
    await card.locator("[data-testid=certification-id-number]").fill("11010519491231002X");
    await card.locator("[data-testid=certification-introduction]").fill("I build customer-service agents for small shops.");
    await card.locator("[data-testid=certification-avatar_photo] input[type=file]").setInputFiles(png("me.png", 400, 500));
    await card.locator("[data-testid=certification-id_front] input[type=file]").setInputFiles(png("front.png", 800, 500, 30));
    await card.locator("[data-testid=certification-id_back] input[type=file]").setInputFiles(png("back.png", 800, 500, 200));
    await card
      .locator("[data-testid=certification-certificate] input[type=file]")
      .setInputFiles({ name: "cert.pdf", mimeType: "application/pdf", buffer: makePdf() });
    await card.locator("[data-testid=certification-submit]").click();
    await card.locator("[data-testid=certification-status][data-status=pending]").waitFor();
    expect(await card.locator("[data-testid=certification-status]").innerText()).toBe("Under review");
    const [row] = await sql(
      "SELECT c.status, c.id_number_hint, c.id_number_encrypted FROM certification c JOIN account a ON a.id = c.account_id WHERE a.account = $1",
      [applicant],
    );
    expect(row).toMatchObject({ status: "pending", id_number_hint: "002X" });
    expect(row.id_number_encrypted).not.toContain("11010519491231002X");

    // The review page is for platform administrators only.
    await page.goto("/admin/certifications");
    await page.waitForURL(/\/no_page_perm$/);

    // An administrator sees the application with its pictures and approves it.
    const admin = await makeSignedIn(`certadm_${run}`, ["platform_admin"]);
    const adminPage = await admin.newPage();
    adminPage.on("pageerror", (e) => errors.push(e.message));
    await adminPage.goto("/admin/certifications");
    const application = adminPage.locator(`[data-testid=certification-application][data-account=${applicant}]`);
    await application.waitFor();
    expect(await application.getByText("Li Lei").count()).toBeGreaterThan(0);
    expect(await application.locator("img").count()).toBe(3);
    await imageLoaded(adminPage, `[data-testid=certification-application][data-account=${applicant}] img`);
    await hydrated(adminPage, `[data-testid=certification-application][data-account=${applicant}] [data-testid=certification-approve]`);
    await application.locator("[data-testid=certification-approve]").click();
    const approved = adminPage.waitForResponse((r) => r.url().endsWith("/approve") && r.request().method() === "POST");
    await clickWhenSettled(adminPage, "[data-testid=certification-approve-ok]");
    expect((await approved).status()).toBe(200);
    await toast(adminPage, "Approved");
    await application.waitFor({ state: "detached" });
    expect((await sql("SELECT roles::text[] AS roles FROM account WHERE account = $1", [applicant]))[0].roles).toContain("enterprise_developer");

    // The applicant's settings show the certified state.
    await page.goto("/setting");
    await card.locator("[data-testid=certification-status][data-status=approved]").waitFor();
    expect(await card.locator("[data-testid=certification-status]").innerText()).toBe("Certified developer");
    await card.getByText("Certified: Li Lei, ID ending in 002X").waitFor();
    // Both pages hydrated cleanly (a server/browser mismatch would throw here).
    expect(errors).toEqual([]);
    await user.close();
    await admin.close();
  });
});
