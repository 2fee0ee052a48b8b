// Developer aid: screenshots of pages at desktop and phone sizes, to look at them as a person would.
//   node scripts/screenshot.mjs http://localhost:3000/ out.png [phone] [lang]
//   LOGIN=zelin_demo:Zelin@2026 node scripts/screenshot.mjs ...   (signs in first, for console pages)
//   SAY="question" ...   (types it into the chat box, sends it and waits for the answer)
import { chromium } from "playwright-core";

const [url, out = "shot.png", device = "desktop", lang] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const phone = device === "phone";
const context = await browser.newContext(
  phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport: { width: 1440, height: 900 } },
);
if (lang) await context.addCookies([{ name: "lang", value: lang, url }]);
const page = await context.newPage();
if (process.env.LOGIN) {
  const [account, password] = process.env.LOGIN.split(":");
  await page.goto(new URL("/login", url).href, { waitUntil: "networkidle" });
  // The same call the login form makes; the CSRF cookie was set by the page load.
  const status = await page.evaluate(
    async ({ account, password }) => {
      const csrf = decodeURIComponent(/(?:^|;\s*)zl_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? "");
      const res = await fetch("/api/v1/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": csrf },
        body: JSON.stringify({ account, password, agreed: true }),
      });
      return (await res.json()).status;
    },
    { account, password },
  );
  if (status !== 200) throw new Error(`login failed: ${status}`);
}
await page.goto(url, { waitUntil: "networkidle" });
await page.waitForTimeout(500);
if (process.env.SAY) {
  await page.locator('[data-testid="chat-input"] textarea').fill(process.env.SAY);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(2500);
}
await page.screenshot({ path: out, fullPage: process.env.FULL === "1" });
await browser.close();
