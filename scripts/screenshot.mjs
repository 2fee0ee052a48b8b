// Developer aid: screenshots of pages at desktop and phone sizes, to look at them as a person would.
//   node scripts/screenshot.mjs http://localhost:3000/ out.png [phone] [lang]
import { chromium } from "playwright-core";

const [url, out = "shot.png", device = "desktop", lang] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const phone = device === "phone";
const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport: { width: 1440, height: 900 } });
if (lang) await context.addCookies([{ name: "lang", value: lang, url }]);
const page = await context.newPage();
await page.goto(url, { waitUntil: "networkidle" });
await page.waitForTimeout(500);
await page.screenshot({ path: out, fullPage: process.env.FULL === "1" });
await browser.close();
