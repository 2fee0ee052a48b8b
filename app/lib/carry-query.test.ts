import { describe, expect, it } from "vitest";
import { carryQuery, withTouser } from "./carry-query";

describe("carryQuery", () => {
  it("keeps the current query values, touser included", () => {
    expect(carryQuery("/case", "?touser=u42&market=hk")).toBe("/case?touser=u42&market=hk");
  });

  it("lets the target's own values win", () => {
    expect(carryQuery("/case?market=cn", "?touser=u42&market=hk")).toBe("/case?market=cn&touser=u42");
  });

  it("keeps hashes and adds nothing when there is no query", () => {
    expect(carryQuery("/terms#refunds", "")).toBe("/terms#refunds");
  });

  it("keeps phone pages on /mobi paths", () => {
    expect(carryQuery("/case", "?touser=7", { mobi: true })).toBe("/mobi/case?touser=7");
    expect(carryQuery("/", "", { mobi: true })).toBe("/mobi");
    expect(carryQuery("/mobi/intro", "", { mobi: true })).toBe("/mobi/intro");
  });

  it("leaves other sites' links alone", () => {
    expect(carryQuery("https://example.com/x", "?touser=1")).toBe("https://example.com/x");
    expect(carryQuery("mailto:a@b.c", "?touser=1")).toBe("mailto:a@b.c");
  });
});

describe("withTouser", () => {
  it("appends touser to API calls", () => {
    expect(withTouser("/api/v1/system/config", "u42")).toBe("/api/v1/system/config?touser=u42");
    expect(withTouser("/api/v1/x?a=1", "u42")).toBe("/api/v1/x?a=1&touser=u42");
  });

  it("does not append it to the two enterprise info calls", () => {
    expect(withTouser("/api/v1/qy/info", "u42")).toBe("/api/v1/qy/info");
    expect(withTouser("/api/v1/qy/info_by_domain?domain=a.b", "u42")).toBe("/api/v1/qy/info_by_domain?domain=a.b");
  });

  it("does nothing without a touser, and never overrides one already given", () => {
    expect(withTouser("/api/v1/x", null)).toBe("/api/v1/x");
    expect(withTouser("/api/v1/x?touser=a", "b")).toBe("/api/v1/x?touser=a");
  });
});
