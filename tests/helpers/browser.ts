import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { inject } from "vitest";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: inject("chromiumPath"),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP = { viewport: { width: 1440, height: 900 } };

export async function newContext(browser: Browser, opts: { phone?: boolean; lang?: string; baseURL: string }): Promise<BrowserContext> {
  const context = await browser.newContext({ ...(opts.phone ? PHONE : DESKTOP), baseURL: opts.baseURL });
  if (opts.lang) await context.addCookies([{ name: "lang", value: opts.lang, url: opts.baseURL }]);
  return context;
}
