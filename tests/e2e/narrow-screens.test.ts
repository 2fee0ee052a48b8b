// No page scrolls sideways on a 375 px phone screen. Every page of the route table is opened at its
// path and at its /mobi twin, found from the table at run time so that a page added later is
// measured without doing anything here: public pages signed out; console pages signed in as an
// ordinary account that owns one of everything (so lists, editors and detail pages have content),
// and as a platform administrator where the ordinary account is turned away. Pages that read an
// id are opened bare and with their owner's id.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MOBI_PREFIX, ROUTE_TABLE, toMobiPath, type TRouteEntry } from "../../app/route-table";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { startFakeOpenai } from "../fakes/fake-openai";
import { launchBrowser } from "../helpers/browser";
import { seedTenant, type TTenant } from "../helpers/tenant-fixture";

const baseURL = inject("webUrl");
const WIDTH = 375;
const PHONE_SCREEN = { viewport: { width: WIDTH, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

let browser: Browser;
let fake: Awaited<ReturnType<typeof startFakeOpenai>>;
let ada: TTenant;
const contexts: Record<"visitor" | "user" | "admin", BrowserContext> = {} as never;

type TIds = TTenant["ids"];
/** The query a page reads its subject from, by route id: the page is opened bare and with it. */
const QUERIES: Record<string, (ids: TIds) => string> = {
  agent_detail: (i) => `id=${i.agent}`,
  update_log: (i) => `id=${i.agent}`,
  upload: (i) => `id=${i.agent}`,
  console_dialogue: (i) => `agent_id=${i.agent}`,
  history_qa: (i) => `agent_id=${i.agent}`,
  create_normal_train: (i) => `id=${i.qaSet}`,
  create_train: (i) => `id=${i.smartSet}`,
  create_databases: (i) => `id=${i.databaseSet}`,
  application: (i) => `id=${i.app}`,
  create_app: (i) => `id=${i.app}`,
  create_api: (i) => `id=${i.apiApp}`,
  poster_editor: (i) => `app=${i.app}`,
  create_bot: (i) => `bot_id=${i.bot}`,
  share: (i) => `app=${i.app}`,
  dialogue: (i) => `app=${i.app}`,
  intro: (i) => `app=${i.app}`,
  detail: (i) => `id=${i.app}`,
  discussion: (i) => `id=${i.app}`,
  customer: (i) => `id=${i.account}`,
  search: () => "q=agent",
  // The generation screens with a library picture handed in (as the picker answers), the gallery filtered.
  drawing: (i) => `media_id=${i.media}`,
  video_generation: (i) => `media_id=${i.media}`,
  generations: () => "kind=image",
  // A figure's check, its keying editor and its training row.
  create_digital: (i) => `id=${i.figure}`,
  create_character: (i) => `id=${i.figure}`,
  figure_train: (i) => `id=${i.figure}`,
  // A workshop's information, its roles and nodes, and its run view.
  create_work: (i) => `id=${i.workshop}`,
  created_workshop: (i) => `id=${i.workshop}`,
  workshop: (i) => `id=${i.workshop}`,
};

async function signedInContext(accountId: string) {
  const context = await browser.newContext({ ...PHONE_SCREEN, baseURL });
  await context.addCookies([
    { name: "lang", value: "en", url: baseURL },
    { name: "zl_session", value: (await startSession(accountId)).token, url: baseURL },
  ]);
  return context;
}

beforeAll(async () => {
  browser = await launchBrowser();
  fake = await startFakeOpenai();
  ada = await seedTenant({ fake, api: { base: baseURL } });
  const admin = await getDb().account.create({
    data: { account: `narrow${crypto.randomBytes(4).toString("hex")}`, nickname: "Admin", roles: ["platform_admin"], language: "en" },
    select: { id: true },
  });
  contexts.visitor = await browser.newContext({ ...PHONE_SCREEN, baseURL });
  await contexts.visitor.addCookies([{ name: "lang", value: "en", url: baseURL }]);
  contexts.user = await signedInContext(ada.ids.account);
  contexts.admin = await signedInContext(admin.id);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await ada?.drop();
  await fake?.close();
});

/** Requests each page has in flight, so a measure can wait for its lists to arrive. */
const inFlight = new WeakMap<Page, Set<unknown>>();
function trackRequests(page: Page) {
  const open = new Set<unknown>();
  inFlight.set(page, open);
  page.on("request", (r) => open.add(r));
  page.on("requestfinished", (r) => open.delete(r));
  page.on("requestfailed", (r) => open.delete(r));
  return page;
}

/**
 * Waits until the page has had no request in flight for QUIET_MS, or MAX_WAIT_MS passed. Lists load
 * after hydration; a page that keeps polling is quiet between two polls; one that keeps a stream
 * open is measured as it stands after the longest wait. (Playwright's "networkidle" waits 500 ms of
 * no connection at all, and its full timeout on every page that polls or streams.)
 */
async function waitForQuiet(page: Page) {
  const open = inFlight.get(page)!;
  const deadline = Date.now() + MAX_WAIT_MS;
  let quietSince = open.size === 0 ? Date.now() : 0;
  while (Date.now() < deadline) {
    await page.waitForTimeout(50);
    if (open.size > 0) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) return;
  }
}
const QUIET_MS = 250;
const MAX_WAIT_MS = 2_500;

/** The page's width once it has rendered and fetched what it shows, and what sticks out if too wide. */
async function measure(page: Page, path: string) {
  const res = await page.goto(path, { waitUntil: "load", timeout: 60_000 });
  await page.waitForSelector("html[data-hydrated]", { timeout: 20_000 }).catch(() => undefined);
  await waitForQuiet(page);
  const measured = await page.evaluate((width) => {
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth <= width) return { scrollWidth, culprits: [] as string[] };
    // The outermost elements past the edge, leaving out what scrolls inside a box of its own.
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (/auto|scroll|hidden|clip/.test(getComputedStyle(a).overflowX)) return true;
      return false;
    };
    const culprits: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.right <= width + 1 || r.width === 0) continue;
      const parent = el.parentElement?.getBoundingClientRect();
      if ((parent && parent.right > width + 1) || clipped(el)) continue;
      culprits.push(
        `${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "")
          .split(" ")
          .slice(0, 2)
          .join(".")} (right ${Math.round(r.right)})`,
      );
    }
    return { scrollWidth, culprits: culprits.slice(0, 4) };
  }, WIDTH);
  return { status: res?.status() ?? 0, landed: new URL(page.url()).pathname, ...measured };
}

function pathsOf(entry: TRouteEntry) {
  return [...(entry.mobiOnly ? [] : [entry.path]), ...(entry.desktopOnly ? [] : [toMobiPath(entry.path)])];
}

describe(`every page at ${WIDTH} px`, () => {
  it("lists the pages of the route table, each at its path and its /mobi twin", () => {
    const all = ROUTE_TABLE.filter((r) => !r.path.includes(":")).flatMap(pathsOf);
    expect(all.length).toBeGreaterThan(120);
    expect(all).toContain("/");
    expect(all).toContain(MOBI_PREFIX);
    expect(all).toContain("/mobi/workspace");
  });

  it("no page is wider than the screen: public pages signed out, console pages signed in (administration pages as an administrator)", async () => {
    const jobs = ROUTE_TABLE.filter((r) => !r.path.includes(":")).flatMap((entry) =>
      pathsOf(entry).flatMap((path) =>
        ["", ...(QUERIES[entry.id] ? [`?${QUERIES[entry.id](ada.ids)}`] : [])].map((query) => ({ entry, url: `${path}${query}` })),
      ),
    );
    const failures: string[] = [];
    let measuredCount = 0;
    // A few pages at once: each waits mostly on the platform's answer and the browser's scripts.
    const worker = async () => {
      const pages = Object.fromEntries(
        await Promise.all((["visitor", "user", "admin"] as const).map(async (who) => [who, trackRequests(await contexts[who].newPage())] as const)),
      );
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        let who: "visitor" | "user" | "admin" = job.entry.layout === "console" ? "user" : "visitor";
        let result = await measure(pages[who], job.url);
        // An ordinary account is turned away from administration pages: those are measured as an administrator.
        if (who === "user" && result.landed.endsWith("/no_page_perm")) {
          who = "admin";
          result = await measure(pages[who], job.url);
        }
        measuredCount += 1;
        if (result.status >= 500) failures.push(`${job.url} (${who}): answered ${result.status}`);
        if (result.scrollWidth > WIDTH) failures.push(`${job.url} (${who}): ${result.scrollWidth} px wide; past the edge: ${result.culprits.join(", ")}`);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(measuredCount).toBeGreaterThan(120);
    expect(failures.sort()).toEqual([]);
  }, 1_500_000);
});
