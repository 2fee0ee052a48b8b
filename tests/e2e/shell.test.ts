import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext } from "../helpers/browser";
import { readLocale } from "../helpers/locales";

let browser: Browser;
const baseURL = inject("webUrl");
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the landing page in each language", () => {
  for (const lng of ["zh_hans", "zh_hant", "en", "pt"] as const) {
    it(`renders in ${lng}`, async () => {
      const context = await newContext(browser, { baseURL, lang: lng });
      const page = await context.newPage();
      const res = await page.goto("/");
      expect(res?.status()).toBe(200);
      const common = readLocale(lng, "common");
      expect(await page.locator(".site-nav").innerText()).toContain(common.nav.case);
      expect(await page.locator("footer").innerText()).toContain(common.footer.policy);
      expect(await page.getAttribute("html", "data-lng")).toBe(lng);
      await context.close();
    });
  }

  it("defaults to Simplified Chinese and keeps a switch after reload", async () => {
    const context = await newContext(browser, { baseURL });
    const page = await context.newPage();
    // Documents, not their "load" events, which also wait for every picture and font (a loaded machine).
    await page.goto("/", { waitUntil: "domcontentloaded" });
    expect(await page.getAttribute("html", "lang")).toBe("zh-Hans");
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=language-switcher]").click();
    // The page reloads in English: waiting for its new document rather than its "load" event, which
    // also waits for every picture and font and timed out once on a loaded machine.
    await page.locator("[data-testid=language-option-en]").click();
    await page.waitForSelector("html[lang=en]", { timeout: 60_000 });
    expect(await page.locator(".site-nav").innerText()).toContain("Customers");
    await page.reload({ waitUntil: "domcontentloaded" });
    expect(await page.getAttribute("html", "lang")).toBe("en");
    const cookie = (await context.cookies()).find((c) => c.name === "lang");
    expect(cookie?.value).toBe("en");
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365.1);
    await context.close();
  });
});

describe("phone pages", () => {
  it("serve every page under /mobi with the phone layout, fitting the screen", async () => {
    const context = await newContext(browser, { baseURL, phone: true, lang: "en" });
    const page = await context.newPage();
    for (const path of ["/mobi", "/mobi/case", "/mobi/intro"]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      expect(await page.locator(".phone-header").isVisible()).toBe(true);
      expect(await page.locator(".site-nav").count()).toBe(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
    // The menu keeps the phone on /mobi paths.
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=phone-menu]").click();
    await page.locator(".phone-nav a", { hasText: "Solutions" }).click();
    await page.waitForURL(/\/mobi\/scheme$/);
    await context.close();
  });
});

describe("query carry-over", () => {
  it("carries touser and the other query values across three navigations, and onto API calls", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    const apiCalls: string[] = [];
    page.on("request", (r) => r.url().includes("/api/") && apiCalls.push(r.url()));
    await page.goto("/?touser=u42&channel=poster");
    for (const [label, path] of [
      ["Customers", "/case"],
      ["Solutions", "/scheme"],
      ["Partners", "/partner"],
    ] as const) {
      await page.locator(".site-nav a", { hasText: label }).click();
      await page.waitForURL((u) => u.pathname === path);
      const url = new URL(page.url());
      expect(url.searchParams.get("touser")).toBe("u42");
      expect(url.searchParams.get("channel")).toBe("poster");
    }
    await page.waitForTimeout(300);
    expect(apiCalls.length).toBeGreaterThan(0);
    for (const call of apiCalls) expect(new URL(call).searchParams.get("touser"), call).toBe("u42");
    await context.close();
  });
});

describe("refusals", () => {
  it("unknown paths get a real 404 page, on desktop and phone", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    expect((await page.goto("/no/such/page"))?.status()).toBe(404);
    expect(await page.locator("[data-testid=error-not_found]").innerText()).toContain("Page not found");
    expect((await page.goto("/mobi/no/such/page"))?.status()).toBe(404);
    expect(await page.locator("[data-testid=error-not_found]").isVisible()).toBe(true);
    await context.close();
  });

  it("the no-access pages say so, with a 403", async () => {
    const context = await newContext(browser, { baseURL, lang: "zh_hans" });
    const page = await context.newPage();
    for (const path of ["/no_perm", "/no_page_perm", "/mobi/no_perm"]) {
      expect((await page.goto(path))?.status(), path).toBe(403);
      expect(await page.locator("[data-testid=error-no_access]").innerText()).toContain("暂无访问权限");
    }
    await context.close();
  });
});

describe("shell state", () => {
  it("keeps the derived private_info in session storage", async () => {
    const context = await newContext(browser, { baseURL });
    const page = await context.newPage();
    await page.goto("/");
    await page.waitForFunction(() => sessionStorage.getItem("private_info"));
    const info = JSON.parse((await page.evaluate(() => sessionStorage.getItem("private_info"))) ?? "{}");
    expect(info).toEqual({
      pay_enable: true,
      app_audio_enable: true,
      domain: { second_level: "", top_level: "zelinai.com" },
      is_private: false,
      is_finished: true,
    });
    await context.close();
  });

  it("remembers the UI size per browser, medium by default", async () => {
    const context = await newContext(browser, { baseURL, lang: "en" });
    const page = await context.newPage();
    await page.goto("/case");
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.getAttribute("html", "class")).toContain("ui-medium");
    const before = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
    await Promise.all([page.waitForEvent("load"), page.locator("[data-testid=ui-size-switcher]").getByText("L", { exact: true }).click()]);
    await page.waitForSelector("html.ui-large");
    await page.goto("/scheme");
    expect(await page.getAttribute("html", "class")).toContain("ui-large");
    const after = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
    expect(parseFloat(after)).toBeGreaterThan(parseFloat(before));
    expect((await context.cookies()).find((c) => c.name === "ui_size")?.value).toBe("large");
    await context.close();
  });

  it("lets the language be switched on error pages too", async () => {
    const context = await newContext(browser, { baseURL, lang: "zh_hans" });
    const page = await context.newPage();
    await page.goto("/no/such/page");
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("[data-testid=language-switcher]").click();
    await Promise.all([page.waitForEvent("load"), page.locator("[data-testid=language-option-pt]").click()]);
    await page.waitForSelector("html[lang=pt]");
    expect(await page.locator("[data-testid=error-not_found]").innerText()).toContain("Página não encontrada");
    await context.close();
  });
});

describe("antd's stylesheet (docs/decisions/0011-antd-stylesheet.md)", () => {
  it("pages link one immutable gzipped stylesheet instead of inlining antd's styles, and are styled by it before any script runs", async () => {
    const html = await (await fetch(`${baseURL}/login`)).text();
    const hrefs = [...html.matchAll(/<link rel="stylesheet" href="(\/_antd\/[0-9a-f]{16}\.css)">/g)].map((m) => m[1]);
    expect(hrefs).toHaveLength(1);
    expect(html).not.toContain("data-ant-cssinjs-cache-path");
    // The second web instance links the same file, and serves it too.
    const html2 = await (await fetch(`${inject("webUrl2")}/login`)).text();
    expect(html2).toContain(hrefs[0]);
    const res = await fetch(`${inject("webUrl2")}${hrefs[0]}`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/css");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const css = await res.text();
    expect(css).toContain(".zl-theme{");
    expect(css).toMatch(/\.data-ant-cssinjs-cache-path\{content:"/);
    expect((await fetch(`${baseURL}/_antd/0000000000000000.css`)).status).toBe(404);

    // Without JavaScript the login form's primary button already has antd's colour.
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto("/login");
    const bg = await page
      .locator("button.ant-btn-primary")
      .first()
      .evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(bg).toBe("rgb(79, 70, 229)");
    await context.close();
  });
});
