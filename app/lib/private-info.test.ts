import { describe, expect, it } from "vitest";
import { derivePrivateInfo, splitDomain } from "./private-info";

describe("private_info", () => {
  it("splits the domain into second-level and top-level parts", () => {
    expect(splitDomain("app.zelinai.com")).toEqual({ second_level: "app", top_level: "zelinai.com" });
    expect(splitDomain("https://a.b.zelinai.com:8443/x")).toEqual({ second_level: "a.b", top_level: "zelinai.com" });
    expect(splitDomain("zelinai.com")).toEqual({ second_level: "", top_level: "zelinai.com" });
  });

  it("derives the flags from the system config", () => {
    expect(derivePrivateInfo({ domain: "ai.acme.cn", config: {}, pay_enable: false, app_audio_enable: true, private: true })).toEqual({
      pay_enable: false,
      app_audio_enable: true,
      domain: { second_level: "ai", top_level: "acme.cn" },
      is_private: true,
      is_finished: true,
    });
  });
});
