// Developer aid: prints a page's console errors, failed requests and HTTP errors.
//   node scripts/console-check.mjs http://localhost:3000/case
import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 400)));
page.on("pageerror", (e) => console.log("pageerror:", e.message.slice(0, 400)));
page.on("requestfailed", (r) => console.log("failed:", r.url()));
page.on("response", (r) => r.status() >= 400 && console.log("http", r.status(), r.url()));
await page.goto(process.argv[2], { waitUntil: "networkidle" });
await page.waitForTimeout(1000);
await browser.close();
