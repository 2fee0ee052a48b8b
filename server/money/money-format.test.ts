// The one way Z coins read: two decimals grouped by thousands, balances rounded down to the fen (a
// page never shows more than is there), other amounts keeping the digits they have below the fen.
import { describe, expect, it } from "vitest";
import { formatZ, formatZBalance, yuanToMicro } from "./money-format";

describe("formatZ", () => {
  it("shows two decimals, grouped by thousands", () => {
    expect(formatZ(0)).toBe("0.00");
    expect(formatZ(null)).toBe("0.00");
    expect(formatZ(100_000_000)).toBe("100.00");
    expect(formatZ(1_234_500_000)).toBe("1,234.50");
    expect(formatZ(12_340_000, { signed: true })).toBe("+12.34");
    expect(formatZ(-12_340_000, { signed: true })).toBe("-12.34");
  });

  it("keeps the digits of an amount below the fen instead of rounding it into another", () => {
    expect(formatZ(3_000)).toBe("0.003");
    expect(formatZ(-3_000)).toBe("-0.003");
    expect(formatZ(99_979_000)).toBe("99.979");
    expect(formatZ(1_234_500)).toBe("1.2345");
    expect(formatZ(1)).toBe("0.000001");
  });

  it("rounds a balance down to the fen: 99.979 reads 99.97, never 99.98", () => {
    expect(formatZBalance(99_979_000)).toBe("99.97");
    expect(formatZBalance(99_999_999)).toBe("99.99");
    expect(formatZBalance(3_000)).toBe("0.00");
    expect(formatZBalance(100_000_000)).toBe("100.00");
    expect(formatZBalance(1_234_567_890_000)).toBe("1,234,567.89");
  });

  it("reads yuan amounts of the payment views as micro-Z", () => {
    expect(yuanToMicro(99.979)).toBe(99_979_000);
    expect(formatZBalance(yuanToMicro(99.979))).toBe("99.97");
    expect(yuanToMicro(0.1 + 0.2)).toBe(300_000);
  });
});
