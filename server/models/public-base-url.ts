// An account's own channel must point at the public internet: otherwise a customer's
// key would let them make the platform call into its own network. Checked when the address is
// saved; the test button then connects through guarded-fetch, which checks again at connect time.
import dns from "node:dns/promises";
import net from "node:net";
import { ZodError } from "zod";
import { isPublicAddress } from "../net/address-policy";

/** SSRF_ALLOWLIST host:port pairs (tests, operators' own gateways) pass as guarded-fetch lets them. */
function isAllowlisted(host: string, port: string) {
  const allowed = (process.env.SSRF_ALLOWLIST ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return allowed.includes(`${host}:${port}`.toLowerCase());
}

function refuse(message: string): never {
  throw new ZodError([{ code: "custom", path: ["base_url"], message, input: undefined }]);
}

/** Refuses (as a field error on base_url) an address that is or resolves to a non-public one. */
export async function assertPublicBaseUrl(baseUrl: string, lookup: (host: string) => Promise<string[]> = resolveAll) {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return refuse("validation.base_url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") refuse("validation.base_url");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (isAllowlisted(host, port)) return;
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) refuse("validation.base_url_private");
    return;
  }
  if (host === "localhost" || host.endsWith(".localhost")) refuse("validation.base_url_private");
  const addresses = await lookup(host).catch(() => [] as string[]);
  // A name that resolves nowhere cannot be judged; it may later resolve to an internal address.
  if (addresses.length === 0) refuse("validation.base_url_unresolved");
  if (addresses.some((a) => !isPublicAddress(a))) refuse("validation.base_url_private");
}

async function resolveAll(host: string) {
  return (await dns.lookup(host, { all: true })).map((a) => a.address);
}
