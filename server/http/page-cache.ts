// A micro-cache for the market's public pages: signed-out visitors asking for the same
// URL in the same language within a few seconds get one render between them. A React render of a
// card grid costs tens of milliseconds of CPU; at fifty requests in flight on two cores that is
// seconds of queueing, while the lists themselves change at most every few seconds. Signed-in
// readers (who see their own likes, follows and owner views) always get a fresh render.
import { gzipSync } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { readCookie } from "./auth-context";
import { SESSION_COOKIE } from "../auth/session.service";

/** Public pages whose HTML depends only on the URL, the language and data shared by everyone. */
const CACHEABLE = new Set(["/app_store", "/intelligent_stores", "/index", "/home", "/search", "/detail", "/discussion", "/customer"]);
let TTL_MS = Number(process.env.PAGE_CACHE_TTL_MS ?? 5_000);
// While one request renders a page afresh, the others are answered from the page it replaces if
// that is at most this old: nobody queues behind the re-render every TTL.
let STALE_MS = 30_000;
const MAX_ENTRIES = 500;
/** Larger pages are rendered each time rather than held in memory. */
const MAX_BYTES = 512 * 1024;
const KEPT_HEADERS = ["content-type", "vary", "content-language"];

/** The body as rendered, and gzipped once so a hit costs a write, not a compression. */
type TEntry = { at: number; status: number; headers: [string, string][]; body: Buffer; gzipped: Buffer };

const entries = new Map<string, TEntry>();
const inFlight = new Map<string, Promise<TEntry | null>>();

function cacheKey(req: Request): string | null {
  if (req.method !== "GET" || TTL_MS <= 0) return null;
  const path = req.path.startsWith("/mobi/") ? req.path.slice(5) : req.path;
  if (!CACHEABLE.has(path)) return null;
  const cookies = req.headers.cookie;
  if (readCookie(cookies, SESSION_COOKIE)) return null;
  // The language is chosen from the cookie, then the browser's list: both are part of the key.
  return `${req.originalUrl}\n${readCookie(cookies, "lang") ?? ""}\n${req.headers["accept-language"] ?? ""}`;
}

function send(req: Request, res: Response, entry: TEntry) {
  res.status(entry.status);
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("X-Page-Cache", "hit");
  res.setHeader("Vary", "Accept-Encoding");
  // Served ahead of the compression middleware: the stored gzip goes out as it is.
  if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", entry.gzipped.length);
    res.end(entry.gzipped);
    return;
  }
  res.setHeader("Content-Length", entry.body.length);
  res.end(entry.body);
}

function remember(key: string, entry: TEntry) {
  if (entries.size >= MAX_ENTRIES) {
    // Maps keep insertion order: drop the oldest tenth.
    let drop = Math.ceil(MAX_ENTRIES / 10);
    for (const k of entries.keys()) {
      entries.delete(k);
      if (--drop === 0) break;
    }
  }
  entries.set(key, entry);
}

/** Wraps the response so the rendered body is kept when it is a cacheable 200 with no new cookie. */
function capture(res: Response, cookiesBefore: unknown): Promise<TEntry | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk == null || typeof chunk === "function" || size > MAX_BYTES) return;
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
      size += buf.length;
      chunks.push(buf);
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as Response["end"];
    res.once("finish", () => {
      // A loader that sets a cookie (a visitor id, a redirect's flash) made this answer personal.
      const personal = res.getHeader("set-cookie") !== cookiesBefore;
      if (res.statusCode !== 200 || personal || size > MAX_BYTES) return resolve(null);
      const headers: [string, string][] = [];
      for (const name of KEPT_HEADERS) {
        const v = res.getHeader(name);
        if (v !== undefined) headers.push([name, String(v)]);
      }
      const body = Buffer.concat(chunks);
      resolve({ at: Date.now(), status: 200, headers, body, gzipped: gzipSync(body, { level: 6 }) });
    });
    res.once("close", () => resolve(null));
  });
}

/** The kept page when it is fresh, or, while someone renders it afresh, when it is not too stale. */
function usable(key: string) {
  const hit = entries.get(key);
  if (!hit) return null;
  const age = Date.now() - hit.at;
  return age < TTL_MS || (inFlight.has(key) && age < STALE_MS) ? hit : null;
}

/**
 * Registered ahead of compression: answers from a kept page (with the cookies the page's own
 * middleware would give, here the CSRF one), else passes on to the rendering path below.
 */
export function servePageCache(issueCookies: (req: Request, res: Response, next: NextFunction) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    const key = cacheKey(req);
    const hit = key ? usable(key) : null;
    if (!hit) return next();
    issueCookies(req, res, () => send(req, res, hit));
  };
}

/** Registered just before the page renderer: keeps what it renders, one render per key at a time. */
export function pageCache(req: Request, res: Response, next: NextFunction) {
  const key = cacheKey(req);
  if (!key) return next();
  const hit = usable(key);
  if (hit) return send(req, res, hit);
  const pending = inFlight.get(key);
  if (pending) {
    // Someone is rendering this page now: wait for theirs rather than render it again.
    void pending.then((entry) => (entry ? send(req, res, entry) : next()));
    return;
  }
  const rendered = capture(res, res.getHeader("set-cookie")).then((entry) => {
    inFlight.delete(key);
    if (entry) remember(key, entry);
    return entry;
  });
  inFlight.set(key, rendered);
  res.setHeader("X-Page-Cache", "miss");
  next();
}

/** For tests: forget every kept page. */
export function clearPageCache() {
  entries.clear();
}

/** For tests: how long a page is fresh, and how stale it may be served while it is rendered afresh. */
export function configurePageCache(o: { ttlMs: number; staleMs: number }) {
  TTL_MS = o.ttlMs;
  STALE_MS = o.staleMs;
}
