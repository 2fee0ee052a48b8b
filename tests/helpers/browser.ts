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
  await recordToasts(context);
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

/**
 * Keeps the text of every antd message a page of the context shows, after the message has gone: a
 * message is on screen for 3 seconds, and a loaded machine can spend that between an action and
 * the test's next look (a missed "Deleted" failed a CI run).
 */
export async function recordToasts(context: BrowserContext) {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __zlToasts: string[] }).__zlToasts = seen;
    const marked = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(".ant-message-notice")) {
        if (marked.has(el)) continue;
        marked.add(el);
        seen.push(el.textContent ?? "");
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * Waits for a message holding `text`: one recorded since the page loaded (taken off the record, so
 * waiting for the same text again needs a new message), or, in a context without the recorder, one
 * on screen.
 */
export async function toast(page: Page, text: string) {
  await page.waitForFunction((t) => {
    const record = (window as unknown as { __zlToasts?: string[] }).__zlToasts;
    if (!record) return [...document.querySelectorAll(".ant-message-notice")].some((el) => el.textContent?.includes(t));
    const i = record.findIndex((s) => s.includes(t));
    if (i >= 0) record.splice(i, 1);
    return i >= 0;
  }, text);
}

/**
 * Clicks a button of a modal or popover once its opening animation has finished: a click while
 * the dialog still zooms in can land beside the moving button and be lost (an approval that never
 * happened failed a CI run).
 */
export async function clickWhenSettled(page: Page, selector: string) {
  const button = page.locator(selector);
  await button.waitFor();
  await button.evaluate(async (el) => {
    const root = el.closest(".ant-modal-root, .ant-modal-wrap, .ant-popover") ?? el;
    await Promise.all(root.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => null)));
  });
  await button.click();
}
