import { beforeAll, describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secret-box";

beforeAll(() => {
  process.env.APP_SECRET ??= "secret-box-unit-test-secret-0000000000";
});

describe("secret box", () => {
  it("opens what it sealed, the empty secret included", () => {
    for (const plain of ["sk-abc", "ak:sk", "用户:密码", ""]) expect(openSecret(sealSecret(plain))).toBe(plain);
  });

  it("refuses a sealed secret that was tampered with or cut short", () => {
    const [version, iv, tag] = sealSecret("").split(".");
    expect(() => openSecret([version, iv, tag, "AA"].join("."))).toThrow();
    expect(() => openSecret([version, iv, tag].join("."))).toThrow("not a sealed secret");
    expect(() => openSecret("plain-text-key")).toThrow("not a sealed secret");
  });
});
