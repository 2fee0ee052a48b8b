// Every outbound request made on a user's behalf (networking, plugins, image URLs, webhooks,
// database training sets) goes through here (docs/security.md, the SSRF guard). The address is
// checked when the socket connects, after DNS, so a name that resolves to a private address, or
// changes its answer between a check and the connection (DNS rebinding), is refused; each redirect
// is checked the same way.
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, fetch as undiciFetch, type RequestInit, type Response } from "undici";
import { AppError } from "../errors/app-error";
import { isPublicAddress } from "./address-policy";
import { createWarmConnector } from "./warm-connector";

export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`refused to connect to ${host} (${address}): not a public address`);
    this.name = "BlockedAddressError";
  }
}

export type TGuardOptions = {
  /** host:port pairs that may be reached even if private: for tests and operators' own services. */
  allow?: string[];
  maxRedirects?: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** The resolver; tests give one that answers like a hostile DNS server. */
  lookup?: typeof dns.lookup;
};

function allowList(opts: TGuardOptions) {
  const fromEnv = (process.env.SSRF_ALLOWLIST ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return new Set([...(opts.allow ?? []), ...fromEnv].map((s) => s.toLowerCase()));
}

function guardedLookup(allowed: Set<string>, port: string, resolve: typeof dns.lookup = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = Array.isArray(addresses) ? addresses : [{ address: String(addresses), family: 4 }];
      const exempt = allowed.has(`${hostname}:${port}`.toLowerCase());
      const bad = list.find((a) => !exempt && !isPublicAddress(a.address));
      if (bad) return callback(new BlockedAddressError(hostname, bad.address), "", 4);
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/** Literal IP hosts never reach lookup: check them before connecting. */
function assertUrlAllowed(url: URL, allowed: Set<string>) {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new AppError("validation_failed", { message: `scheme ${url.protocol} not allowed` });
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (allowed.has(`${host}:${port}`.toLowerCase())) return port;
  if (/^[\d.]+$/.test(host) || host.includes(":")) {
    if (!isPublicAddress(host)) throw new BlockedAddressError(host, host);
  }
  if (host === "localhost" || host.endsWith(".localhost")) throw new BlockedAddressError(host, "loopback");
  return port;
}

/**
 * fetch() for user-supplied URLs. Follows at most `maxRedirects` redirects, checking each one;
 * refuses private addresses with BlockedAddressError; caps the body at `maxBytes`.
 */
export async function guardedFetch(
  input: string,
  init: RequestInit = {},
  opts: TGuardOptions = {},
): Promise<{ response: Response; body: Buffer; url: string }> {
  const allowed = allowList(opts);
  const maxRedirects = opts.maxRedirects ?? 5;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 15_000);
  let url = new URL(input);
  for (let hop = 0; ; hop++) {
    const port = assertUrlAllowed(url, allowed);
    const dispatcher = new Agent({ connect: { lookup: guardedLookup(allowed, port, opts.lookup) } });
    try {
      const response = await undiciFetch(url, { ...init, redirect: "manual", dispatcher, signal: init.signal ?? signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= maxRedirects) throw new AppError("validation_failed", { message: "too many redirects" });
        url = new URL(location, url);
        continue;
      }
      const body = await readCapped(response, opts.maxBytes ?? 10 * 1024 * 1024);
      return { response, body, url: url.toString() };
    } catch (err) {
      throw unwrapBlocked(err);
    } finally {
      void dispatcher.close();
    }
  }
}

/**
 * A dispatcher with the same checks for clients that stream rather than read one capped body (an
 * account's own model channel): the literal host is checked now, every resolved address when a
 * connection is made. Redirects are not followed by the model client, so none need checking.
 */
export function createGuardedAgent(input: string, opts: TGuardOptions = {}) {
  const allowed = allowList(opts);
  const port = assertUrlAllowed(new URL(input), allowed);
  // With a spare connection kept while the origin is in use (warm-connector.ts); a spare is
  // connected through the same lookup, so it is checked like any other connection.
  const connector = createWarmConnector({ lookup: guardedLookup(allowed, port, opts.lookup) });
  return Object.assign(new Agent({ connect: connector }), { connector });
}

export type TGuardedAgent = ReturnType<typeof createGuardedAgent>;

function unwrapBlocked(err: unknown): unknown {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    if (e instanceof BlockedAddressError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return err;
}

async function readCapped(response: Response, maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new AppError("file_too_large");
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
