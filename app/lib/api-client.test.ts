import { describe, expect, it, vi } from "vitest";
import { apiRequest, ApiError, handlePlatformStatus, LICENCE_EVENT, type TBrowserEnv } from "./api-client";

function env(href: string, touser: string | null = null) {
  const url = new URL(href);
  const assign = vi.fn();
  const dispatch = vi.fn();
  const e: TBrowserEnv = {
    location: { href, hostname: url.hostname, pathname: url.pathname, search: url.search, assign },
    ownHosts: ["zelinai.com", "www.zelinai.com", "localhost"],
    dispatch,
    touser: () => touser,
  };
  return { e, assign, dispatch };
}

describe("platform codes (login, redirect, licence)", () => {
  it("110003 on our own host goes to /login, back to where the user was", () => {
    const { e, assign } = env("https://zelinai.com/case?touser=9");
    expect(handlePlatformStatus({ status: 110003, description: "", data: null }, e)).toBe(true);
    expect(assign).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent("/case?touser=9")}`);
  });

  it("110003 on an enterprise's host goes to /sso_login keeping the domain value", () => {
    const { e, assign } = env("https://ai.acme.cn/app?domain=acme");
    handlePlatformStatus({ status: 110003, description: "", data: null }, e);
    expect(assign).toHaveBeenCalledWith("/sso_login?domain=acme");
  });

  it("110003 on an enterprise's host without a domain value uses the host", () => {
    const { e, assign } = env("https://ai.acme.cn/app");
    handlePlatformStatus({ status: 110003, description: "", data: null }, e);
    expect(assign).toHaveBeenCalledWith("/sso_login?domain=ai.acme.cn");
  });

  it("110003 on the login page itself does not loop", () => {
    const { e, assign } = env("https://zelinai.com/login");
    expect(handlePlatformStatus({ status: 110003, description: "", data: null }, e)).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });

  it("494105 goes to data.url", () => {
    const { e, assign } = env("https://zelinai.com/");
    handlePlatformStatus({ status: 494105, description: "", data: { url: "https://pay.example/x" } }, e);
    expect(assign).toHaveBeenCalledWith("https://pay.example/x");
  });

  it("10001 and 10002 raise the licence overlay with the validity range", () => {
    const { e, dispatch } = env("https://zelinai.com/");
    handlePlatformStatus({ status: 10002, description: "", data: { contact_phone: "400" }, message: { start_time: 20250101, end_time: 20251231 } }, e);
    expect(dispatch).toHaveBeenCalledWith(LICENCE_EVENT, { status: 10002, start_time: 20250101, end_time: 20251231, contact_phone: "400" });
  });
});

describe("apiRequest", () => {
  it("appends touser, form-encodes the body, and returns data", async () => {
    const { e } = env("https://zelinai.com/", "u7");
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ status: 200, description: "success", data: { ok: 1 } })));
    const data = await apiRequest("/api/v1/thing", { body: { a: 1, ufids: [1, 2] }, env: e, fetchImpl });
    expect(data).toEqual({ ok: 1 });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/v1/thing?touser=u7");
    expect(init.method).toBe("POST");
    expect((init.body as URLSearchParams).toString()).toBe("a=1&ufids=%5B1%2C2%5D");
  });

  it("throws the envelope's description on refusals", async () => {
    const { e } = env("https://zelinai.com/");
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ status: 420017, description: "File too large", data: null })));
    await expect(apiRequest("/api/v1/upload", { env: e, fetchImpl })).rejects.toEqual(new ApiError(420017, "File too large", null));
  });
});
