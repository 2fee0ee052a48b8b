import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext } from "../helpers/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("licence overlays", () => {
  it("10001: shows the validity range and contact phone, and can be closed", async () => {
    const context = await newContext(browser, { baseURL: inject("expiringUrl"), lang: "en" });
    const page = await context.newPage();
    await page.goto("/");
    const modal = page.locator(".ant-modal").filter({ has: page.locator("[data-testid=licence-range]") });
    await modal.waitFor();
    expect(await modal.innerText()).toContain("Your licence expires soon");
    expect(await page.locator("[data-testid=licence-range]").innerText()).toMatch(/Valid from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    expect(await page.locator("[data-testid=licence-phone]").innerText()).toContain("021-5555-0101");
    await page.waitForSelector("html[data-hydrated]");
    // Wait out the modal's opening animation: on a loaded machine a click made while it zooms in
    // was seen to land before the button's handler took it.
    await page.waitForFunction(() => !document.querySelector(".ant-modal.ant-zoom-appear, .ant-modal.ant-zoom-enter"));
    await page.locator("[data-testid=licence-close]").click();
    await modal.waitFor({ state: "hidden" });
    await context.close();
  });

  it("10002: cannot be closed by button, Escape or the mask, on desktop and phone", async () => {
    for (const phone of [false, true]) {
      const context = await newContext(browser, { baseURL: inject("expiredUrl"), lang: "en", phone });
      const page = await context.newPage();
      await page.goto(phone ? "/mobi" : "/");
      const modal = page.locator(".ant-modal").filter({ has: page.locator("[data-testid=licence-range]") });
      await modal.waitFor();
      expect(await modal.innerText()).toContain("Your licence has expired");
      expect(await modal.locator(".ant-modal-close").count()).toBe(0);
      await page.keyboard.press("Escape");
      await page.mouse.click(5, 5);
      await page.waitForTimeout(400);
      expect(await modal.isVisible()).toBe(true);
      await context.close();
    }
  });

  it("10002: the server refuses writes", async () => {
    const res = await fetch(`${inject("expiredUrl")}/api/v1/admin/screen_lock`, {
      method: "PUT",
      headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
      body: JSON.stringify({ items: [] }),
    });
    expect((await res.json()).status).toBe(10002);
  });

  it("10002: a payment provider's notification still reaches the payments code (money already received)", async () => {
    const res = await fetch(`${inject("expiredUrl")}/api/v1/pay/wechat/notify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const text = await res.text();
    expect(text).not.toContain("10002");
    // That instance has no WeChat Pay configured: the payments code refuses it, not the licence.
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(text.toLowerCase()).toContain("fail");
  });
});

describe("screen lock", () => {
  const setLock = (items: unknown[]) =>
    // Set through the second web instance: the page on the first must still see it.
    fetch(`${inject("webUrl2")}/api/v1/admin/screen_lock`, {
      method: "PUT",
      headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
      body: JSON.stringify({ items }),
    }).then((r) => r.json());
  afterEach(async () => {
    await setLock([]);
  });

  it("covers open pages within seconds, answers clicks with the toast, and lifts when the list is emptied", async () => {
    const context = await newContext(browser, { baseURL: inject("webUrl"), lang: "en" });
    const page = await context.newPage();
    await page.goto("/case");
    const lock = page.locator("[data-testid=screen-lock]");
    expect(await lock.count()).toBe(0);

    expect((await setLock([{ img_name: "Class in session", img_url: "/favicon.svg", screen_control: 1 }])).status).toBe(200);
    const started = Date.now();
    await lock.waitFor({ timeout: 8000 });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await lock.locator("img").getAttribute("alt")).toBe("Class in session");

    await page.locator("[data-testid=screen-lock-exit]").click();
    await page.locator(".ant-message").getByText("Screen control in progress, please stay focused").waitFor();

    await setLock([]);
    await lock.waitFor({ state: "detached", timeout: 8000 });
    await context.close();
  });
});
