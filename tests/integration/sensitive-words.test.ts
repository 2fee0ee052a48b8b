import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertNoSensitiveInput, createOutputCensor, setSensitiveWords } from "../../server/content/content.service";
import { mapError } from "../../server/errors/map-error";
import { Browser, startApiServer } from "../helpers/api-client";

const ADMIN = "sensitive-words-admin-token";
let api: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  process.env.ADMIN_API_TOKEN = ADMIN;
  const { resetEnvCache } = await import("../../server/env");
  resetEnvCache();
  api = await startApiServer();
});
afterAll(async () => {
  await setSensitiveWords({ words: [] });
  await api.close();
});

describe("sensitive words", () => {
  it("an administrator sets the list; others cannot read or change it", async () => {
    const user = new Browser(api.base);
    expect((await user.call("/api/v1/admin/sensitive_words")).body.status).toBe(403001);
    expect((await user.call("/api/v1/admin/sensitive_words", { method: "PUT", body: { words: ["x"] } })).body.status).toBe(403001);
    const put = await fetch(`${api.base}/api/v1/admin/sensitive_words`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ words: ["赌博", "赌博", "casino"] }),
    }).then((r) => r.json());
    expect(put.data).toEqual({ count: 2 });
  });

  it("refuses input with a listed word, in the user's language", async () => {
    await setSensitiveWords({ words: ["赌博"] });
    const err = await assertNoSensitiveInput("哪里可以赌 博？").then(() => null, (e) => e);
    expect(mapError(err, "en").envelope).toEqual({ status: 420009, description: "Input contains sensitive words", data: null });
    await expect(assertNoSensitiveInput("今天天气不错")).resolves.toBeUndefined();
  });

  it("censors streamed output across chunk boundaries", async () => {
    await setSensitiveWords({ words: ["代开发票"] });
    const censor = await createOutputCensor();
    expect(censor.push("可以代开")).toEqual([]);
    expect(censor.push("发票")).toEqual(["代开发票"]);
  });

  it("refuses a malformed list without changing the current one", async () => {
    await setSensitiveWords({ words: ["keep"] });
    await expect(setSensitiveWords({ words: [""] })).rejects.toThrow();
    await expect(assertNoSensitiveInput("keep it")).rejects.toThrow();
  });
});
