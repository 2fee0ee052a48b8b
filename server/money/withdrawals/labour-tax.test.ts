// Labour tax (labour-tax.ts) at and around the incomes where its rules change: income 800 and 4,000
// (the deduction switches from 800 to 20%), taxable 800, 4,000, 20,000 and 50,000 (the brackets).
import { describe, expect, it } from "vitest";
import { computeLabourTax, computeLabourTaxFen, computeLabourTaxMicro } from "./labour-tax";
import { computeLabourTax as siteComputeLabourTax } from "../../../app/components/site/labour-tax";

const cases: [income: number, taxable: number, rate: number, tax: number, received: number][] = [
  [0, 0, 20, 0, 0],
  [10, 0, 20, 0, 10],
  [799.99, 0, 20, 0, 799.99],
  [800, 0, 20, 0, 800],
  [800.01, 0.01, 20, 0, 800.01],
  [1000, 200, 20, 40, 960],
  [1600, 800, 20, 160, 1440], // taxable 800
  [1600.01, 800.01, 20, 160, 1440.01],
  [3999.99, 3199.99, 20, 640, 3359.99],
  [4000, 3200, 20, 640, 3360], // the last income taxed on income − 800
  [4000.01, 3200.01, 20, 640, 3360.01], // from here 80% of income is taxable
  [4800, 3840, 20, 768, 4032],
  [4999.99, 3999.99, 20, 800, 4199.99],
  [5000, 4000, 20, 800, 4200], // taxable 4,000
  [5000.01, 4000.01, 20, 800, 4200.01],
  [24999.99, 19999.99, 20, 4000, 20999.99],
  [25000, 20000, 20, 4000, 21000], // taxable 20,000: the top of the 20% bracket
  [25000.01, 20000.01, 30, 4000, 21000.01], // 30% − 2,000 joins without a step
  [30000, 24000, 30, 5200, 24800],
  [62499.99, 49999.99, 30, 13000, 49499.99],
  [62500, 50000, 30, 13000, 49500], // taxable 50,000: the top of the 30% bracket
  [62500.01, 50000.01, 40, 13000, 49500.01], // 40% − 7,000
  [100000, 80000, 40, 25000, 75000],
];

describe("labour tax", () => {
  it.each(cases)("income %s: taxable %s at %s%%, tax %s, received %s", (income, taxable, rate, tax, received) => {
    const r = computeLabourTax(income);
    expect(r).toMatchObject({ income, taxable, rate, tax, received });
    expect(r.tax + r.received).toBeCloseTo(income, 6);
  });

  it("works in whole fen and in micro-Z with the same answers", () => {
    expect(computeLabourTaxFen(2_500_001)).toMatchObject({
      taxableFen: 2_000_001,
      rate: 30,
      quickDeductionFen: 200_000,
      taxFen: 400_000,
      receivedFen: 2_100_001,
    });
    expect(computeLabourTaxMicro(62_500_010_000)).toEqual({
      amountMicro: 62_500_010_000,
      taxableMicro: 50_000_010_000,
      rate: 40,
      taxMicro: 13_000_000_000,
      receivedMicro: 49_500_010_000,
    });
    expect(computeLabourTaxMicro(1_600_000_000)).toMatchObject({ taxMicro: 160_000_000, receivedMicro: 1_440_000_000 });
  });

  it("never taxes more than it takes, and the tax never falls as income grows", () => {
    let last = 0;
    for (let fen = 0; fen <= 10_000_000; fen += 997) {
      const r = computeLabourTaxFen(fen);
      expect(r.taxFen).toBeGreaterThanOrEqual(last);
      expect(r.taxFen).toBeLessThanOrEqual(fen);
      expect(r.taxFen + r.receivedFen).toBe(fen);
      last = r.taxFen;
    }
  });

  it("is the same function the explanation pages use", () => {
    expect(siteComputeLabourTax).toBe(computeLabourTax);
  });
});
