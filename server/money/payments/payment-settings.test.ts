import { describe, expect, it } from "vitest";
import { parsePaymentSettings } from "./payment-settings";

describe("the payment sandbox", () => {
  const production = { NODE_ENV: "production", DATABASE_URL: "postgresql://db.internal:5432/zelin" };
  const alipay = {
    ALIPAY_APP_ID: "2021000000000001",
    ALIPAY_PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----",
    ALIPAY_PUBLIC_KEY: "-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----",
  };

  it("is the default of a deployment with no real provider that is not a production configuration", () => {
    expect(parsePaymentSettings({}).sandbox).toBe(true);
    expect(parsePaymentSettings({ NODE_ENV: "production" }).sandbox).toBe(true);
    expect(parsePaymentSettings({ ...production, ZELIN_EMBEDDED_DB: "1" }).sandbox).toBe(true);
  });

  it("is off once a real provider is configured, unless PAYMENT_SANDBOX=on keeps it beside it", () => {
    expect(parsePaymentSettings(alipay).sandbox).toBe(false);
    expect(parsePaymentSettings({ ...alipay, PAYMENT_SANDBOX: "on" }).sandbox).toBe(true);
    expect(parsePaymentSettings({ PAYMENT_SANDBOX: "off" }).sandbox).toBe(false);
  });

  it("is off on a production configuration, and asking for it there stops the process with a sentence unless ALLOW_PAYMENT_SANDBOX=1", () => {
    expect(parsePaymentSettings(production).sandbox).toBe(false);
    expect(parsePaymentSettings({ ...production, ALLOW_PAYMENT_SANDBOX: "1" }).sandbox).toBe(false);
    expect(parsePaymentSettings({ ...production, PAYMENT_SANDBOX: "off" }).sandbox).toBe(false);
    for (const on of ["on", "1", "true", "yes"]) {
      expect(() => parsePaymentSettings({ ...production, PAYMENT_SANDBOX: on })).toThrowError(
        /Zelin cannot start[\s\S]*PAYMENT_SANDBOX: is on, on a production configuration.*ALLOW_PAYMENT_SANDBOX=1/,
      );
      expect(() => parsePaymentSettings({ ...production, ...alipay, PAYMENT_SANDBOX: on, ALLOW_PAYMENT_SANDBOX: "0" })).toThrowError(/PAYMENT_SANDBOX/);
    }
    // Both settings, by name: an operator's staging server (the end-to-end platform is one).
    expect(parsePaymentSettings({ ...production, PAYMENT_SANDBOX: "on", ALLOW_PAYMENT_SANDBOX: "1" }).sandbox).toBe(true);
  });
});
