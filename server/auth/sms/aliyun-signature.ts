// Aliyun's RPC-style request signature (SignatureVersion 1.0, HMAC-SHA1), as Dysmsapi expects it.
// Kept apart from the provider so the algorithm can be checked against Aliyun's published example.
import crypto from "node:crypto";

/**
 * RFC 3986 percent-encoding as Aliyun defines it: only A-Z a-z 0-9 - _ . ~ stay as they are. A plain
 * encodeURIComponent leaves ! ' ( ) * alone, which would make our signature differ from Aliyun's.
 */
export function percentEncode(value: string) {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Parameters sorted by name and encoded: both the query string sent and the text that is signed. */
export function buildCanonicalQuery(params: Record<string, string>) {
  return Object.keys(params)
    .filter((name) => name !== "Signature")
    .sort()
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name])}`)
    .join("&");
}

export function signAliyunRpc(params: Record<string, string>, accessKeySecret: string, method = "GET") {
  const stringToSign = `${method}&${percentEncode("/")}&${percentEncode(buildCanonicalQuery(params))}`;
  return crypto.createHmac("sha1", `${accessKeySecret}&`).update(stringToSign, "utf8").digest("base64");
}

/** ISO 8601 in UTC without milliseconds (yyyy-MM-ddTHH:mm:ssZ), the form Aliyun documents. */
export function formatAliyunTimestamp(date: Date) {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
