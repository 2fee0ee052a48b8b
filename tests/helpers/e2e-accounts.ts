// Signed-in people for end-to-end tests, made straight in the run's database (the login pages have
// their own tests): an account with its edition, roles and coins, a live session, browser contexts
// that carry the session at desktop or phone width, and files put in its library as the page does.
import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { inject } from "vitest";
import { DESKTOP, PHONE, recordToasts } from "./browser";
import { sql } from "./e2e-db";
import { fundE2eAccount } from "./money";

/** The narrowest phone the console is laid out for: nothing may scroll sideways at this width. */
export const PHONE_375 = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const SCREENS = { desktop: DESKTOP, phone: PHONE, "phone-375": PHONE_375 };
export type TScreen = keyof typeof SCREENS;

export type TE2eAccount = { id: string; token: string };

/**
 * A new account with a live session. A paid edition runs for 30 days; `fundsMicro` is given as
 * gift credit. `account` is the login name (unique per run), a random one when not named.
 */
export async function makeE2eAccount(
  o: { account?: string; edition?: "basic" | "professional" | "flagship"; roles?: string[]; fundsMicro?: number } = {},
): Promise<TE2eAccount> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  const edition = o.edition ?? "basic";
  await sql(
    `INSERT INTO account (id, account, nickname, edition, edition_expires_at, roles, updated_at) VALUES ($1, $2, $2, $3::"Edition", $4, $5::"Role"[], now())`,
    [
      id,
      o.account ?? `e2e_${crypto.randomBytes(4).toString("hex")}`,
      edition,
      edition === "basic" ? null : new Date(Date.now() + 30 * 86_400_000),
      o.roles ?? [],
    ],
  );
  if (o.fundsMicro) await fundE2eAccount(inject("databaseUrl"), id, o.fundsMicro);
  return { id, token: await openSession(id) };
}

/** A day's session for the account: answers the cookie's token (the database keeps its hash). */
export async function openSession(accountId: string) {
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    accountId,
  ]);
  return token;
}

/** A browser context signed in with the token, at the screen's size, in `lang` (English unless named), recording toasts. */
export async function signedInContext(browser: Browser, token: string, o: { screen?: TScreen; lang?: string } = {}): Promise<BrowserContext> {
  const baseURL = inject("webUrl");
  const context = await browser.newContext({ ...SCREENS[o.screen ?? "desktop"], baseURL });
  await recordToasts(context);
  await context.addCookies([
    { name: "zl_session", value: token, url: baseURL },
    { name: "lang", value: o.lang ?? "en", url: baseURL },
  ]);
  return context;
}

/** Puts a file into the signed-in page's library through the upload, as the library page does: answers the item's id and address. */
export async function uploadToLibrary(page: Page, name: string, mime: string, bytes: Buffer): Promise<{ id: string; url: string }> {
  return page.evaluate(
    async ({ name, mime, data }) => {
      const csrf = decodeURIComponent(/(?:^|;\s*)zl_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? "");
      const form = new FormData();
      form.append("file", new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: mime }), name);
      const res = await fetch("/api/v1/media", { method: "POST", body: form, headers: { "x-csrf-token": csrf } });
      const body = (await res.json()) as { status: number; description: string; data: { id: string; url: string } };
      if (body.status !== 200) throw new Error(`upload ${name}: ${body.status} ${body.description}`);
      return { id: body.data.id, url: body.data.url };
    },
    { name, mime, data: bytes.toString("base64") },
  );
}
