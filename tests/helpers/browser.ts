import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";

/** `extraArgs` add Chromium switches for one test's browser (e.g. a fake microphone). */
export async function launchBrowser(opts: { extraArgs?: string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: inject("chromiumPath"),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", ...(opts.extraArgs ?? [])],
  });
}

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP = { viewport: { width: 1440, height: 900 } };

export async function newContext(browser: Browser, opts: { phone?: boolean; lang?: string; baseURL: string }): Promise<BrowserContext> {
  const context = await browser.newContext({ ...(opts.phone ? PHONE : DESKTOP), baseURL: opts.baseURL });
  if (opts.lang) await context.addCookies([{ name: "lang", value: opts.lang, url: opts.baseURL }]);
  return context;
}

/** A screenshot taker that writes `<name>.png` into the folder named by `envName`, and does nothing when it is unset. */
export function screenshotsTo(envName: string, opts: { fullPage?: boolean } = { fullPage: true }) {
  return async (page: Page, name: string) => {
    const dir = process.env[envName];
    if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: opts.fullPage });
  };
}
