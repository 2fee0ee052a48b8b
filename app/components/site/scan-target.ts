// Where a scanned Zelin QR code may lead (/mobi/scan?target=...): only a page of this site.

const ORIGIN = "http://zelin.invalid";

/** A scanned code may only lead to a page of this site: "/path", never "//host", "/\host" or a scheme. */
export function readScanTarget(raw: string | null): string | null {
  const value = raw?.trim();
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // Browsers drop tabs and newlines from URLs, which could turn "/\t/host" into "//host".
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN) return null;
  const plain = url.pathname.replace(/^\/mobi(?=\/|$)/, "") || "/";
  if (plain === "/scan") return null; // would only bring us back here
  return `${url.pathname}${url.search}${url.hash}`;
}
