import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { isTransientConflict, retryTransient, TRANSACTION_ATTEMPTS } from "./transaction";

describe("isTransientConflict", () => {
  it("knows a deadlock or serialization failure however the driver or Prisma reports it", () => {
    expect(isTransientConflict(Object.assign(new Error("deadlock detected"), { code: "40P01" }))).toBe(true);
    expect(isTransientConflict(Object.assign(new Error("could not serialize access due to concurrent update"), { code: "40001" }))).toBe(true);
    expect(isTransientConflict(Object.assign(new Error("Transaction failed due to a write conflict or a deadlock"), { code: "P2034" }))).toBe(true);
    expect(isTransientConflict(Object.assign(new Error("Raw query failed."), { code: "P2010", meta: { code: "40P01" } }))).toBe(true);
    expect(
      isTransientConflict(new Error("Invalid `prisma.$queryRawUnsafe()` invocation:\n\nRaw query failed. Code: `40P01`. Message: `deadlock detected`")),
    ).toBe(true);
    expect(isTransientConflict(new Error("wrapped", { cause: { code: "40001" } }))).toBe(true);
  });

  it("leaves every other failure alone", () => {
    expect(isTransientConflict(new AppError("balance_insufficient"))).toBe(false);
    expect(isTransientConflict(Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }))).toBe(false);
    expect(isTransientConflict(Object.assign(new Error("Raw query failed."), { code: "P2010", meta: { code: "23514" } }))).toBe(false);
    expect(isTransientConflict(null)).toBe(false);
    expect(isTransientConflict("40P01")).toBe(false);
  });
});

describe("retryTransient", () => {
  const deadlock = () => Object.assign(new Error("deadlock detected"), { code: "40P01" });

  it("runs the work again after a deadlock and answers its result", async () => {
    let calls = 0;
    expect(await retryTransient(async () => (++calls < 3 ? Promise.reject(deadlock()) : "done"))).toBe("done");
    expect(calls).toBe(3);
  });

  it("gives up after TRANSACTION_ATTEMPTS and throws the last failure", async () => {
    let calls = 0;
    await expect(retryTransient(async () => Promise.reject(Object.assign(deadlock(), { attempt: ++calls })))).rejects.toMatchObject({
      code: "40P01",
      attempt: TRANSACTION_ATTEMPTS,
    });
    expect(calls).toBe(TRANSACTION_ATTEMPTS);
  });

  it("does not retry a refusal", async () => {
    let calls = 0;
    await expect(retryTransient(async () => Promise.reject(new AppError("balance_insufficient", { data: { calls: ++calls } })))).rejects.toMatchObject({
      code: "balance_insufficient",
    });
    expect(calls).toBe(1);
  });
});
