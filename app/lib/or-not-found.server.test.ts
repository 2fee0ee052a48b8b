import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../../server/errors/app-error";
import { orNotFound } from "./or-not-found.server";

async function refusalOf(load: () => Promise<unknown>) {
  return orNotFound(load).then(
    () => null,
    (err: unknown) => err,
  );
}

describe("orNotFound", () => {
  it("answers what the lookup found", async () => {
    await expect(orNotFound(async () => ({ id: "a1" }))).resolves.toEqual({ id: "a1" });
  });

  it("turns a missing id, another account's and a malformed one into the same not_found", async () => {
    for (const thrown of [
      new AppError("not_found"),
      new AppError("no_permission"),
      new AppError("validation_failed"),
      z.object({ id: z.string().uuid() }).safeParse({ id: "x" }).error,
    ]) {
      const err = await refusalOf(async () => {
        throw thrown;
      });
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("not_found");
    }
  });

  it("lets every other failure through as it was", async () => {
    const busy = new AppError("system_busy");
    expect(await refusalOf(async () => Promise.reject(busy))).toBe(busy);
    const crash = new Error("db down");
    expect(await refusalOf(async () => Promise.reject(crash))).toBe(crash);
  });
});
