import { describe, expect, it, vi } from "vitest";
import { ApiError, errorText } from "./api-client";
import { runMutation, type TMutationSinks } from "./use-mutation";

function sinks() {
  const seen: string[] = [];
  const s: TMutationSinks = { start: () => seen.push("start"), finish: () => seen.push("finish"), fail: (text) => seen.push(`fail:${text}`) };
  return { s, seen };
}

describe("errorText", () => {
  it("says a refusal's localized description", () => {
    expect(errorText(new ApiError(400, "名称已存在", null))).toBe("名称已存在");
  });
  it("says the fallback, else the error's own text, for anything else", () => {
    expect(errorText(new TypeError("Failed to fetch"), "网络错误")).toBe("网络错误");
    expect(errorText(new TypeError("Failed to fetch"))).toBe("TypeError: Failed to fetch");
  });
});

describe("runMutation", () => {
  it("answers the result between start and finish", async () => {
    const { s, seen } = sinks();
    const fn = vi.fn(async (a: number, b: number) => {
      seen.push("run");
      return a + b;
    });
    await expect(runMutation(fn, [2, 3], {}, s)).resolves.toBe(5);
    expect(seen).toEqual(["start", "run", "finish"]);
  });

  it("reports a refusal's description and answers undefined instead of throwing", async () => {
    const { s, seen } = sinks();
    const fn = async () => {
      throw new ApiError(420001, "余额不足", null);
    };
    await expect(runMutation(fn, [], {}, s)).resolves.toBeUndefined();
    expect(seen).toEqual(["start", "fail:余额不足", "finish"]);
  });

  it("uses the fallback for a failure that is not a refusal", async () => {
    const { s, seen } = sinks();
    const fn = async () => {
      throw new TypeError("Failed to fetch");
    };
    await runMutation(fn, [], { fallback: "网络错误" }, s);
    expect(seen).toContain("fail:网络错误");
  });

  it("lets onError see the failure with the arguments, and skip the report when it took it", async () => {
    const { s, seen } = sinks();
    const refusal = new ApiError(400, "refused", null);
    const onError = vi.fn((err: unknown) => err === refusal);
    const fn = async (_id: string) => {
      throw refusal;
    };
    await runMutation(fn, ["a1"], { onError }, s);
    expect(onError).toHaveBeenCalledWith(refusal, "a1");
    expect(seen).toEqual(["start", "finish"]);
  });

  it("still reports when onError only looked", async () => {
    const { s, seen } = sinks();
    const fn = async () => {
      throw new ApiError(400, "refused", null);
    };
    await runMutation(fn, [], { onError: () => undefined }, s);
    expect(seen).toEqual(["start", "fail:refused", "finish"]);
  });

  it("catches a synchronous throw too", async () => {
    const { s, seen } = sinks();
    const fn = ((): Promise<void> => {
      throw new Error("boom");
    }) as () => Promise<void>;
    await expect(runMutation(fn, [], {}, s)).resolves.toBeUndefined();
    expect(seen).toEqual(["start", "fail:Error: boom", "finish"]);
  });
});
