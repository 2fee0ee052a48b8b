import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "./app-error";
import { ERROR_CODES } from "./codes";
import { mapError, okEnvelope } from "./map-error";

describe("the one mapping from errors to the envelope", () => {
  it("maps an AppError to its status, HTTP status and message in the user's language", () => {
    const en = mapError(new AppError("file_too_large"), "en");
    expect(en).toEqual({ httpStatus: 413, code: "file_too_large", envelope: { status: 420017, description: "File too large", data: null } });
    expect(mapError(new AppError("file_too_large"), "zh_hans").envelope.description).toBe("文件过大");
    expect(mapError(new AppError("file_too_large"), "pt").envelope.description).toBe("Ficheiro demasiado grande");
  });

  it("keeps the platform codes the browser acts on", () => {
    expect(mapError(new AppError("not_logged_in")).envelope.status).toBe(110003);
    expect(mapError(new AppError("redirect", { data: { url: "/x" } })).envelope).toMatchObject({ status: 494105, data: { url: "/x" } });
    expect(mapError(new AppError("licence_expired")).envelope.status).toBe(10002);
  });

  it("turns validation failures into localized field messages", () => {
    const schema = z.object({ url: z.string().refine((u) => u.startsWith("http"), "validation.link_scheme") });
    const result = schema.safeParse({ url: "ftp://x" });
    const mapped = mapError(result.error, "en");
    expect(mapped.httpStatus).toBe(400);
    expect(mapped.envelope).toEqual({
      status: 400001,
      description: "A link must start with http:// or https://",
      data: { fields: [{ path: "url", message: "A link must start with http:// or https://" }] },
    });
  });

  it("hides unexpected errors behind internal_error", () => {
    const mapped = mapError(new Error("connection refused at 10.0.0.5"), "en");
    expect(mapped.envelope).toEqual({ status: 500001, description: "Something went wrong on our side, please try again", data: null });
  });

  it("wraps successes", () => {
    expect(okEnvelope({ a: 1 })).toEqual({ status: 200, description: "success", data: { a: 1 } });
  });

  it("has distinct statuses for every code", () => {
    const statuses = Object.values(ERROR_CODES).map((c) => c.status);
    expect(new Set(statuses).size).toBe(statuses.length);
  });
});
