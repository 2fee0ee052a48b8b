// Secrets at rest (app secrets, channel keys, ID numbers): AES-256-GCM under a key derived from
// APP_SECRET. The format names its version so the key can be rotated later.
import crypto from "node:crypto";

const VERSION = "v1";

function key(): Buffer {
  const secret = process.env.APP_SECRET;
  if (!secret || secret.length < 32) {
    throw new Error("APP_SECRET is not set (at least 32 characters): it encrypts secrets at rest. `npm start` makes one in DATA_DIR; production must set it.");
  }
  return crypto.createHash("sha256").update(`zelin-secret-box:${secret}`).digest();
}

export function sealSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  // An empty body is an empty secret (a self-hosted media server without authentication).
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("not a sealed secret");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** A random token for cookies, codes and keys, URL-safe. */
export function randomToken(bytes = 32) {
  return crypto.randomBytes(bytes).toString("base64url");
}

export function sha256(text: string) {
  // The one-shot form: a third of createHash's cost, and every request with a session asks.
  return crypto.hash("sha256", text, "hex");
}
