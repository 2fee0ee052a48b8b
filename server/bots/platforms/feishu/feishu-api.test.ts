import { describe, expect, it } from "vitest";
import { FeishuApiError, toApiError } from "./feishu-api";

describe("toApiError", () => {
  it("Feishu's refusals (HTTP 4xx with a code, or the token manager's message) are refusals; busy, 5xx and network failures are not", () => {
    const http400 = toApiError({ message: "Request failed with status code 400", response: { status: 400, data: { code: 10014, msg: "app secret invalid" } } });
    expect(http400).toMatchObject({ code: 10014, httpStatus: 400, refused: true });
    expect(toApiError(new Error("failed to get tenant_access_token, code: 10003, msg: invalid param"))).toMatchObject({ code: 10003, refused: true });
    expect(toApiError({ response: { status: 400, data: { code: 99991400, msg: "request trigger frequency limit" } } }).refused).toBe(false);
    expect(toApiError({ response: { status: 502, data: {} } })).toMatchObject({ code: null, httpStatus: 502, refused: false });
    expect(toApiError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })).refused).toBe(false);
    const same = new FeishuApiError("x", 1, 200);
    expect(toApiError(same)).toBe(same);
  });
});
