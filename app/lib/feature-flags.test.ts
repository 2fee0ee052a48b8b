import { describe, expect, it } from "vitest";
import { DEFAULT_MARKET, MARKET_FLAGS, isFlagOn } from "./feature-flags";

describe("feature flags per market", () => {
  it("has three markets with the same flags, zelinai by default", () => {
    expect(Object.keys(MARKET_FLAGS)).toHaveLength(3);
    expect(DEFAULT_MARKET).toBe("zelinai");
    const flags = Object.keys(MARKET_FLAGS.zelinai).sort();
    for (const table of Object.values(MARKET_FLAGS)) expect(Object.keys(table).sort()).toEqual(flags);
  });

  it("reads a market's flags, and the default market's for an unknown one", () => {
    expect(isFlagOn("zelinai", "icp_filing")).toBe(true);
    expect(isFlagOn("zelinai_global", "icp_filing")).toBe(false);
    expect(isFlagOn("atlantis", "icp_filing")).toBe(true);
  });
});
