// Edition pricing (docs/decisions/0006-edition-pricing.md): terms, renewals, pro-rated upgrades
// to the micro-Z, refusals; and the duration display (365-day years, 30.4375-day months).
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { durationParts } from "../../../app/components/editions/duration";
import { DAY_MS, quoteEditionChange, termFeeMicro, unusedCreditMicro, unusedWholeDays } from "./edition-pricing";

const M = 1_000_000;
const now = new Date("2026-03-01T08:00:00Z");
const later = (days: number, hours = 0) => new Date(now.getTime() + days * DAY_MS + hours * 3_600_000);
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof AppError ? (e.data as { reason: string }).reason : String(e);
  }
  return null;
};

describe("term fees", () => {
  it("charges the table's fee for 365 days and fee * 30 / 365 rounded up to the fen for 30", () => {
    expect(termFeeMicro("professional", 365)).toBe(199 * M);
    expect(termFeeMicro("professional", 30)).toBe(16_360_000); // 16.3561...
    expect(termFeeMicro("flagship", 30)).toBe(24_580_000); // 24.5753...
    expect(termFeeMicro("enterprise", 30)).toBe(49_240_000); // 49.2328...
    expect(termFeeMicro("education", 30)).toBe(49_240_000);
  });
});

describe("quotes", () => {
  it("a first purchase starts now and asks the fee plus the prepaid top-up", () => {
    const q = quoteEditionChange({ edition: "basic", editionExpiresAt: null }, "professional", 365, now);
    expect(q).toMatchObject({
      kind: "new",
      feeMicro: 199 * M,
      creditMicro: 0,
      prepaidMicro: 100 * M,
      chargeMicro: 199 * M,
      totalMicro: 299 * M,
      expiresAt: later(365),
    });
  });

  it("a renewal extends from the current expiry", () => {
    const q = quoteEditionChange({ edition: "flagship", editionExpiresAt: later(10, 3) }, "flagship", 30, now);
    expect(q).toMatchObject({ kind: "renew", creditMicro: 0, chargeMicro: 24_580_000, totalMicro: 224_580_000, expiresAt: later(40, 3) });
  });

  it("an ended membership is basic again: no credit, the term starts now", () => {
    const q = quoteEditionChange({ edition: "flagship", editionExpiresAt: later(-1) }, "professional", 30, now);
    expect(q).toMatchObject({ kind: "new", current: "basic", creditMicro: 0, expiresAt: later(30) });
  });

  it("an upgrade credits the whole unused days at the current edition's yearly fee, rounded down to the micro", () => {
    expect(unusedWholeDays(later(100, 23), now)).toBe(100);
    expect(unusedWholeDays(later(0, 23), now)).toBe(0);
    expect(unusedCreditMicro("professional", 100)).toBe(54_520_547); // 199e6 * 100 / 365 = 54520547.9...
    const q = quoteEditionChange({ edition: "professional", editionExpiresAt: later(100, 23) }, "flagship", 365, now);
    expect(q).toMatchObject({
      kind: "upgrade",
      unusedDays: 100,
      creditMicro: 54_520_547,
      chargeMicro: 299 * M - 54_520_547,
      totalMicro: 299 * M - 54_520_547 + 200 * M,
      expiresAt: later(365),
    });
    // Across to the other edition of the same rank is priced the same way.
    const across = quoteEditionChange({ edition: "enterprise", editionExpiresAt: later(73) }, "education", 365, now);
    expect(across).toMatchObject({ kind: "upgrade", creditMicro: Math.floor((599 * M * 73) / 365) });
    expect(across.creditMicro).toBe(119_800_000);
  });

  it("refuses a downgrade while active, a credit reaching the new fee, and basic", () => {
    expect(refusal(() => quoteEditionChange({ edition: "flagship", editionExpiresAt: later(5) }, "professional", 365, now))).toBe("downgrade_while_active");
    // 60 days of flagship are worth 49.15; enterprise for 30 days is 49.24: allowed. 61 days: 49.97, refused.
    expect(quoteEditionChange({ edition: "flagship", editionExpiresAt: later(60) }, "enterprise", 30, now).chargeMicro).toBe(
      49_240_000 - Math.floor((299 * M * 60) / 365),
    );
    expect(refusal(() => quoteEditionChange({ edition: "flagship", editionExpiresAt: later(61) }, "enterprise", 30, now))).toBe("credit_exceeds_fee");
    expect(refusal(() => quoteEditionChange({ edition: "basic", editionExpiresAt: null }, "basic", 30, now))).toBe("basic_not_sold");
  });
});

describe("duration display", () => {
  it("uses a 365-day year and a 30.4375-day month", () => {
    expect(durationParts(365 + 2 * 30.4375 + 3)).toEqual([
      { unit: "years", count: 1 },
      { unit: "months", count: 2 },
      { unit: "days", count: 3 },
    ]);
    expect(durationParts(365)).toEqual([{ unit: "years", count: 1 }]);
    expect(durationParts(92)).toEqual([
      { unit: "months", count: 3 },
      { unit: "days", count: 1 },
    ]);
    expect(durationParts(364.9999)).toEqual([{ unit: "years", count: 1 }]);
    expect(durationParts(30)).toEqual([{ unit: "days", count: 30 }]);
    expect(durationParts(61)).toEqual([{ unit: "months", count: 2 }]);
    expect(durationParts(0.4)).toEqual([{ unit: "days", count: 0 }]);
  });
});
