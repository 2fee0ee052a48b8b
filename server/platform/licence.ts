// Licences are signed with Ed25519 by the vendor (scripts/licence.ts) and verified here with the
// public key from settings. Pure functions: the service decides where the file and key come from.
import crypto from "node:crypto";
import { EXPIRY_WARNING_DAYS, ZLicenceFile, daysBetween, type TLicenceFile, type TLicencePayload, type TLicenceStatus } from "./licence.schema";

/** The bytes that are signed: the payload's keys in sorted order, so formatting cannot matter. */
export function canonicalPayload(payload: TLicencePayload) {
  const sorted = Object.fromEntries(Object.entries(payload).sort(([a], [b]) => a.localeCompare(b)));
  return Buffer.from(JSON.stringify(sorted), "utf8");
}

export function parsePublicKey(text: string) {
  const trimmed = text.trim();
  if (trimmed.includes("BEGIN PUBLIC KEY")) return crypto.createPublicKey(trimmed);
  return crypto.createPublicKey({ key: Buffer.from(trimmed, "base64"), format: "der", type: "spki" });
}

export function signLicence(payload: TLicencePayload, privateKeyPem: string): TLicenceFile {
  const signature = crypto.sign(null, canonicalPayload(payload), crypto.createPrivateKey(privateKeyPem)).toString("base64");
  return { payload, signature };
}

export function generateKeyPair() {
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519");
  return {
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/** Parses and verifies a licence file's text; returns the payload or why it was refused. */
export function verifyLicence(text: string, publicKey: crypto.KeyObject): { ok: true; payload: TLicencePayload } | { ok: false; reason: string } {
  let file: TLicenceFile;
  try {
    const parsed = ZLicenceFile.safeParse(JSON.parse(text));
    if (!parsed.success) return { ok: false, reason: `malformed licence: ${parsed.error.issues[0]?.message}` };
    file = parsed.data;
  } catch {
    return { ok: false, reason: "licence file is not JSON" };
  }
  let valid: boolean;
  try {
    valid = crypto.verify(null, canonicalPayload(file.payload), publicKey, Buffer.from(file.signature, "base64"));
  } catch {
    valid = false;
  }
  return valid ? { ok: true, payload: file.payload } : { ok: false, reason: "signature does not match" };
}

/** What the licence means today. */
export function evaluateLicence(payload: TLicencePayload | null, today: number, contactPhone: string, invalid = false): TLicenceStatus {
  const base = { contact_phone: payload?.contact_phone ?? contactPhone };
  if (invalid) return { ...base, state: "invalid", status: 10002, start_time: null, end_time: null, days_left: null };
  if (!payload) return { ...base, state: "open", status: 200, start_time: null, end_time: null, days_left: null };
  const { start_time, end_time } = payload;
  const days_left = daysBetween(today, end_time);
  if (today < start_time) return { ...base, state: "not_started", status: 10002, start_time, end_time, days_left };
  if (today > end_time) return { ...base, state: "expired", status: 10002, start_time, end_time, days_left };
  if (days_left <= EXPIRY_WARNING_DAYS) return { ...base, state: "expiring", status: 10001, start_time, end_time, days_left };
  return { ...base, state: "valid", status: 200, start_time, end_time, days_left };
}
