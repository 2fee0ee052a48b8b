// A Feishu event callback (webhook mode), checked and read before anything is done with it:
// - with an encrypt key, the body is {"encrypt": base64(iv + AES-256-CBC(sha256(key)))} and the
//   headers sign it: X-Lark-Signature = sha256(timestamp + nonce + encrypt_key + raw body);
// - the plain event carries the verification token (header.token in v2 events, token in the URL
//   verification challenge), which must be the bot's.
// The SDK's EventDispatcher signs JSON.stringify(body) and checks the token only in some paths, so
// the checks are made here on the bytes Feishu signed; the SDK then decrypts and dispatches.
import crypto from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import * as lark from "@larksuiteoapi/node-sdk";
import type { TGreetingTrigger, TInboundMessage } from "../../../../bot-gateway/core/channel";
import { createFeishuDispatcher } from "./feishu-dispatcher";

export type TFeishuWebhookCredentials = { encrypt_key: string; verification_token: string };

export type TFeishuCallback =
  | { kind: "challenge"; challenge: string }
  | { kind: "events"; messages: TInboundMessage[]; greetings: TGreetingTrigger[] }
  | { kind: "refused"; reason: "bad_body" | "cannot_decrypt" | "bad_signature" | "bad_token" };

export async function readFeishuCallback(
  creds: TFeishuWebhookCredentials,
  headers: IncomingHttpHeaders,
  rawBody: Buffer,
  botOpenId: () => Promise<string | null>,
): Promise<TFeishuCallback> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(rawBody.toString("utf8"));
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
  } catch {
    return { kind: "refused", reason: "bad_body" };
  }

  let plain: Record<string, unknown> = body;
  if (typeof body.encrypt === "string") {
    if (!creds.encrypt_key) return { kind: "refused", reason: "cannot_decrypt" };
    try {
      plain = JSON.parse(new lark.AESCipher(creds.encrypt_key).decrypt(body.encrypt));
    } catch {
      return { kind: "refused", reason: "cannot_decrypt" };
    }
  }

  const token = (plain.header as { token?: unknown } | undefined)?.token ?? plain.token;
  if (!sameText(token, creds.verification_token)) return { kind: "refused", reason: "bad_token" };
  // Feishu checks the address with a challenge before it sends any event; it is not signed.
  if (plain.type === "url_verification") return { kind: "challenge", challenge: String(plain.challenge ?? "") };
  if (creds.encrypt_key && !signatureValid(creds.encrypt_key, headers, rawBody)) return { kind: "refused", reason: "bad_signature" };

  const messages: TInboundMessage[] = [];
  const greetings: TGreetingTrigger[] = [];
  const dispatcher = createFeishuDispatcher({ botOpenId, onMessage: (m) => void messages.push(m), onGreeting: (g) => void greetings.push(g) });
  await dispatcher.invoke(plain, { needCheck: false });
  return { kind: "events", messages, greetings };
}

/** Feishu's signature of a callback: hex sha256 over timestamp, nonce, encrypt key and the raw body. */
export function feishuSignature(encryptKey: string, timestamp: string, nonce: string, rawBody: Buffer | string): string {
  return crypto
    .createHash("sha256")
    .update(Buffer.concat([Buffer.from(timestamp + nonce + encryptKey, "utf8"), Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, "utf8")]))
    .digest("hex");
}

function signatureValid(encryptKey: string, headers: IncomingHttpHeaders, rawBody: Buffer): boolean {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
  const timestamp = one(headers["x-lark-request-timestamp"]);
  const nonce = one(headers["x-lark-request-nonce"]);
  const signature = one(headers["x-lark-signature"]);
  if (!timestamp || !signature) return false;
  return sameText(signature, feishuSignature(encryptKey, timestamp, nonce, rawBody));
}

function sameText(a: unknown, b: string): boolean {
  if (typeof a !== "string" || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
