/**
 * Only a path on this site: "//host" and "/\host" are other sites to a browser, and control
 * characters are dropped by browsers, which can turn "/\t/host" into "//host".
 */
export function toSafeRedirect(value: unknown, fallback = "/") {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return fallback;
  return /[\\\u0000-\u001f\u007f]/.test(value) ? fallback : value;
}
