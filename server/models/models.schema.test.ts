import { describe, expect, it } from "vitest";
import { CHAT_CHANNEL_TYPES, findChannelKeyIssue, ZCreateChannelInput, ZCreateOwnChannelInput, ZUpdateChannelInput } from "./models.schema";

const channel = { name: "c", base_url: "https://api.example.com/", models: ["m"] };

describe("a channel's key, by type", () => {
  it("may be empty only for the self-hosted media servers", () => {
    expect(findChannelKeyIssue("sdwebui", "")).toBeNull();
    expect(findChannelKeyIssue("comfyui", "")).toBeNull();
    for (const type of [...CHAT_CHANNEL_TYPES, "kling", "dashscope"]) expect(findChannelKeyIssue(type, ""), type).toBe("validation.required");
  });

  it("is accessKey:secretKey for Kling, both halves present", () => {
    expect(findChannelKeyIssue("kling", "ak:sk")).toBeNull();
    expect(findChannelKeyIssue("kling", "ak : sk/with:colons")).toBeNull();
    for (const bad of ["ak", "ak:", ":sk", " :sk", "ak: "]) expect(findChannelKeyIssue("kling", bad), bad).toBe("validation.kling_key");
    // Other types take whatever their provider issued.
    expect(findChannelKeyIssue("dashscope", "no-colon")).toBeNull();
  });

  it("is checked by the create schemas (platform and own), on the key field", () => {
    for (const schema of [ZCreateChannelInput, ZCreateOwnChannelInput]) {
      expect(schema.parse({ ...channel, type: "sdwebui" }).key).toBe("");
      expect(schema.parse({ ...channel, type: "comfyui", key: "  " }).key).toBe("");
      const refused = schema.safeParse({ ...channel, type: "kling", key: "half" });
      expect(refused.error?.issues).toMatchObject([{ path: ["key"], message: "validation.kling_key" }]);
      expect(schema.safeParse({ ...channel, type: "openai" }).error?.issues).toMatchObject([{ path: ["key"], message: "validation.required" }]);
    }
  });

  it("is never emptied by an update: an absent key keeps the stored one, an empty one is refused", () => {
    expect(ZUpdateChannelInput.parse({ type: "comfyui" }).key).toBeUndefined();
    expect(ZUpdateChannelInput.safeParse({ key: "" }).error?.issues).toMatchObject([{ path: ["key"], message: "validation.required" }]);
  });
});
