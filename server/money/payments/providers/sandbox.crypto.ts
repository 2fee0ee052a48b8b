// The sandbox's notification signature, made the way WeChat Pay signs its own: HMAC-SHA256 over
// "TIMESTAMP\nNONCE\nBODY\n" in three headers, with a key derived from APP_SECRET (so a body signed
// under another install's secret, or edited after signing, does not verify here).
import crypto from "node:crypto";

export const SANDBOX_HEADERS = { timestamp: "zelin-sandbox-timestamp", nonce: "zelin-sandbox-nonce", signature: "zelin-sandbox-signature" } as const;

function sandboxKey(): Buffer {
  const secret = process.env.APP_SECRET;
  if (!secret || secret.length < 32) throw new Error("APP_SECRET is not set (at least 32 characters): it signs the sandbox's payment notifications.");
  return crypto.createHash("sha256").update(`zelin-payment-sandbox:${secret}`).digest();
}

const mac = (timestamp: string, nonce: string, body: string) => crypto.createHmac("sha256", sandboxKey()).update(`${timestamp}\n${nonce}\n${body}\n`).digest();

/** The headers of a notification carrying `body`, signed now (or at `timestamp`, in seconds). */
export function signSandboxNotification(body: string, opts: { timestamp?: number; nonce?: string } = {}): Record<string, string> {
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = opts.nonce ?? crypto.randomBytes(16).toString("hex");
  return {
    [SANDBOX_HEADERS.timestamp]: timestamp,
    [SANDBOX_HEADERS.nonce]: nonce,
    [SANDBOX_HEADERS.signature]: mac(timestamp, nonce, body).toString("base64"),
  };
}

/** Whether `signature` (base64) is the sandbox's over this timestamp, nonce and body; compared in constant time. */
export function verifySandboxSignature(opts: { timestamp: string; nonce: string; body: string; signature: string }): boolean {
  if (!opts.timestamp || !opts.nonce || !opts.signature) return false;
  const expected = mac(opts.timestamp, opts.nonce, opts.body);
  const given = Buffer.from(opts.signature, "base64");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
