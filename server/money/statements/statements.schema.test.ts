import { describe, expect, it } from "vitest";
import { formatZ, ZStatementFilters } from "./statements.schema";

describe("formatZ", () => {
  it("shows fen with 2 decimals and keeps the digits of fractions of a fen", () => {
    expect(formatZ(0)).toBe("0.00");
    expect(formatZ(-3_000)).toBe("-0.003");
    expect(formatZ(12_340_000, { signed: true })).toBe("+12.34");
    expect(formatZ(1_234_567_890_000)).toBe("1,234,567.89");
    expect(formatZ(-1_003_000)).toBe("-1.003");
    expect(formatZ(2_500)).toBe("0.0025");
  });

  it("refuses a range that ends before it starts", () => {
    expect(ZStatementFilters.safeParse({ from: "2026-02-01", to: "2026-01-01" }).success).toBe(false);
    expect(ZStatementFilters.parse({ from: "", to: "2026-01-01", type: "" })).toEqual({ to: "2026-01-01" });
  });
});
