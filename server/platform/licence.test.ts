import { describe, expect, it } from "vitest";
import { evaluateLicence, generateKeyPair, parsePublicKey, signLicence, verifyLicence } from "./licence";
import { daysBetween, isValidYmd, todayYmd } from "./licence.schema";

const keys = generateKeyPair();
const pub = parsePublicKey(keys.publicKeyPem);
const payload = { licensee: "ACME", start_time: 20260101, end_time: 20261231, contact_phone: "021-1234" };

describe("licence signatures (Ed25519)", () => {
  it("accepts a licence signed with the matching key", () => {
    const text = JSON.stringify(signLicence(payload, keys.privateKeyPem));
    expect(verifyLicence(text, pub)).toEqual({ ok: true, payload });
  });

  it("accepts the same licence however it is formatted", () => {
    const file = signLicence(payload, keys.privateKeyPem);
    const reordered = JSON.stringify(
      { signature: file.signature, payload: { end_time: 20261231, contact_phone: "021-1234", start_time: 20260101, licensee: "ACME" } },
      null,
      4,
    );
    expect(verifyLicence(reordered, pub).ok).toBe(true);
  });

  it("refuses a licence whose dates were edited", () => {
    const file = signLicence(payload, keys.privateKeyPem);
    file.payload.end_time = 20301231;
    expect(verifyLicence(JSON.stringify(file), pub)).toEqual({ ok: false, reason: "signature does not match" });
  });

  it("refuses a licence signed by another key", () => {
    const other = generateKeyPair();
    expect(verifyLicence(JSON.stringify(signLicence(payload, other.privateKeyPem)), pub).ok).toBe(false);
  });

  it("refuses files that are not licences", () => {
    expect(verifyLicence("not json", pub)).toEqual({ ok: false, reason: "licence file is not JSON" });
    expect(verifyLicence(JSON.stringify({ payload: { ...payload, end_time: 20261332 }, signature: "x" }), pub).ok).toBe(false);
  });

  it("reads public keys as PEM or base64 DER", () => {
    const der = pub.export({ type: "spki", format: "der" }).toString("base64");
    const text = JSON.stringify(signLicence(payload, keys.privateKeyPem));
    expect(verifyLicence(text, parsePublicKey(der)).ok).toBe(true);
  });
});

describe("what a licence means today", () => {
  const p = { licensee: "ACME", start_time: 20260101, end_time: 20261231 };
  it("no licence: an open deployment", () => {
    expect(evaluateLicence(null, 20260601, "400").status).toBe(200);
  });
  it("valid while more than 30 days remain", () => {
    expect(evaluateLicence(p, 20261130, "400")).toMatchObject({ state: "valid", status: 200, days_left: 31 });
  });
  it("10001 when it ends within 30 days, including the last day", () => {
    expect(evaluateLicence(p, 20261201, "400")).toMatchObject({ state: "expiring", status: 10001, days_left: 30 });
    expect(evaluateLicence(p, 20261231, "400")).toMatchObject({ state: "expiring", status: 10001, days_left: 0 });
  });
  it("10002 the day after it ends, before it starts, and when invalid", () => {
    expect(evaluateLicence(p, 20270101, "400")).toMatchObject({ state: "expired", status: 10002 });
    expect(evaluateLicence(p, 20251231, "400")).toMatchObject({ state: "not_started", status: 10002 });
    expect(evaluateLicence(null, 20260601, "400", true)).toMatchObject({ state: "invalid", status: 10002 });
  });
  it("carries the licence's contact phone, or the deployment's", () => {
    expect(evaluateLicence({ ...p, contact_phone: "021" }, 20260601, "400").contact_phone).toBe("021");
    expect(evaluateLicence(p, 20260601, "400").contact_phone).toBe("400");
  });
});

describe("dates as YYYYMMDD", () => {
  it("validates calendar dates", () => {
    expect(isValidYmd(20240229)).toBe(true);
    expect(isValidYmd(20250229)).toBe(false);
    expect(isValidYmd(20251301)).toBe(false);
  });
  it("counts days across months and years", () => {
    expect(daysBetween(20261231, 20270101)).toBe(1);
    expect(daysBetween(20260101, 20261231)).toBe(364);
  });
  it("reads today in the deployment's time zone", () => {
    const instant = new Date("2026-11-20T17:30:00Z");
    expect(todayYmd(instant, "Asia/Shanghai")).toBe(20261121);
    expect(todayYmd(instant, "UTC")).toBe(20261120);
  });
  it("turns the day at midnight to the millisecond, though it keeps an answer for the rest of its minute", () => {
    // Shanghai's midnight is 16:00 UTC; Kathmandu's (UTC+5:45) falls at 18:15 UTC.
    expect(todayYmd(new Date("2026-11-20T15:59:59.999Z"), "Asia/Shanghai")).toBe(20261120);
    expect(todayYmd(new Date("2026-11-20T16:00:00.000Z"), "Asia/Shanghai")).toBe(20261121);
    expect(todayYmd(new Date("2026-11-20T15:59:30.000Z"), "Asia/Shanghai")).toBe(20261120);
    expect(todayYmd(new Date("2026-11-20T18:14:59.999Z"), "Asia/Kathmandu")).toBe(20261120);
    expect(todayYmd(new Date("2026-11-20T18:15:00.000Z"), "Asia/Kathmandu")).toBe(20261121);
  });
});
