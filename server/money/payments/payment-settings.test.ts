import { describe, expect, it } from "vitest";
import { parsePaymentSettings } from "./payment-settings";

describe("the development payment provider", () => {
  const production = { NODE_ENV: "production", DATABASE_URL: "postgresql://db.internal:5432/zelin" };

  it("is the default of a deployment with no real provider that is not a production configuration", () => {
    expect(parsePaymentSettings({}).devProvider).toBe(true);
    expect(parsePaymentSettings({ NODE_ENV: "production" }).devProvider).toBe(true);
    expect(parsePaymentSettings({ ...production, ZELIN_EMBEDDED_DB: "1" }).devProvider).toBe(true);
  });

  it("is off on a production configuration unless PAYMENT_DEV_PROVIDER=on says so", () => {
    expect(parsePaymentSettings(production).devProvider).toBe(false);
    expect(parsePaymentSettings({ ...production, PAYMENT_DEV_PROVIDER: "on" }).devProvider).toBe(true);
    expect(parsePaymentSettings({ PAYMENT_DEV_PROVIDER: "off" }).devProvider).toBe(false);
  });
});
