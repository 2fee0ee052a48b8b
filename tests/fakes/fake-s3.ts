// A loopback stand-in for an S3-compatible bucket, path-style (`/<bucket>/<key>`): PutObject,
// GetObject (with a single Range), HeadObject and DeleteObject, in S3's shapes (an XML NoSuchKey error). Every request's
// AWS Signature Version 4 is verified against the one access key it knows: a request signed with
// another secret, for another service or with a tampered payload is refused like S3 refuses it.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TFakeS3Request = { method: string; bucket: string; key: string; authorization: string; credentialScope: string; signedHeaders: string[] };

const hmac = (key: Buffer | string, data: string) => crypto.createHmac("sha256", key).update(data, "utf8").digest();
const sha256 = (data: Buffer | string) => crypto.createHash("sha256").update(data).digest("hex");

/** RFC 3986 encoding as SigV4 wants it for query names and values. */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function xmlError(res: http.ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

export async function startFakeS3(opts: { bucket: string; accessKeyId: string; secretAccessKey: string; region: string }) {
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const requests: TFakeS3Request[] = [];

  /** Null when the signature is right, else why it is not. */
  function verify(req: http.IncomingMessage, body: Buffer): { error: string } | { scope: string; signedHeaders: string[] } {
    const auth = req.headers.authorization ?? "";
    const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
    if (!m) return { error: "no SigV4 Authorization header" };
    const [, keyId, date, region, service, signedList, signature] = m;
    if (keyId !== opts.accessKeyId) return { error: "unknown access key" };
    if (region !== opts.region || service !== "s3") return { error: `wrong scope ${region}/${service}` };
    const amzDate = String(req.headers["x-amz-date"] ?? "");
    if (!amzDate.startsWith(date)) return { error: "x-amz-date does not match the scope" };
    const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
    if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) return { error: "payload hash mismatch" };
    const signedHeaders = signedList.split(";");
    if (!signedHeaders.includes("host") || !signedHeaders.includes("x-amz-date")) return { error: "host and x-amz-date must be signed" };

    const [rawPath, rawQuery = ""] = (req.url ?? "/").split("?");
    const query = rawQuery
      .split("&")
      .filter(Boolean)
      .map((pair) => {
        const [k, v = ""] = pair.split("=");
        return [encode(decodeURIComponent(k)), encode(decodeURIComponent(v))];
      })
      .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join("&");
    const headers = signedHeaders
      .map(
        (h) =>
          `${h}:${String(req.headers[h] ?? "")
            .trim()
            .replace(/\s+/g, " ")}\n`,
      )
      .join("");
    const canonical = [req.method, rawPath, query, headers, signedList, payloadHash].join("\n");
    const scope = `${date}/${region}/${service}/aws4_request`;
    const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
    const key = hmac(hmac(hmac(hmac(`AWS4${opts.secretAccessKey}`, date), region), service), "aws4_request");
    const expected = crypto.createHmac("sha256", key).update(toSign).digest("hex");
    if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) return { error: "signature does not match" };
    return { scope, signedHeaders };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const pathname = (req.url ?? "/").split("?")[0];
      const [, bucket = "", ...rest] = pathname.split("/");
      const key = rest.map((s) => decodeURIComponent(s)).join("/");
      const checked = verify(req, body);
      if ("error" in checked) return xmlError(res, 403, "SignatureDoesNotMatch", checked.error);
      requests.push({
        method: req.method ?? "",
        bucket,
        key,
        authorization: req.headers.authorization ?? "",
        credentialScope: checked.scope,
        signedHeaders: checked.signedHeaders,
      });
      if (bucket !== opts.bucket) return xmlError(res, 404, "NoSuchBucket", "The specified bucket does not exist");
      if (!key) return xmlError(res, 400, "InvalidRequest", "object key required");
      const stored = objects.get(key);
      if (req.method === "PUT") {
        objects.set(key, { bytes: body, contentType: String(req.headers["content-type"] ?? "binary/octet-stream") });
        res.writeHead(200, { etag: `"${crypto.createHash("md5").update(body).digest("hex")}"` });
        return res.end();
      }
      if (req.method === "GET" || req.method === "HEAD") {
        if (!stored) return req.method === "HEAD" ? res.writeHead(404).end() : xmlError(res, 404, "NoSuchKey", "The specified key does not exist.");
        const range = req.method === "GET" ? /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? "")) : null;
        if (range) {
          const size = stored.bytes.length;
          const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
          const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
          if (start >= size || end < start) return xmlError(res, 416, "InvalidRange", "The requested range is not satisfiable");
          res.writeHead(206, {
            "content-type": stored.contentType,
            "content-length": String(end - start + 1),
            "content-range": `bytes ${start}-${end}/${size}`,
          });
          return res.end(stored.bytes.subarray(start, end + 1));
        }
        res.writeHead(200, {
          "content-type": stored.contentType,
          "content-length": String(stored.bytes.length),
          etag: `"${sha256(stored.bytes).slice(0, 32)}"`,
        });
        return res.end(req.method === "GET" ? stored.bytes : undefined);
      }
      if (req.method === "DELETE") {
        objects.delete(key);
        return res.writeHead(204).end();
      }
      xmlError(res, 405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { endpoint, objects, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}
