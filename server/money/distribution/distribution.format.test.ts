import { describe, expect, it } from "vitest";
import { maskName } from "./distribution.format";

describe("maskName", () => {
  it("keeps the first and last character and stars at most three in between", () => {
    expect(maskName("张三")).toBe("张*");
    expect(maskName("张三丰")).toBe("张*丰");
    expect(maskName("alexander")).toBe("a***r");
    expect(maskName("x")).toBe("*");
    expect(maskName("")).toBe("***");
    expect(maskName(null)).toBe("***");
    expect(maskName("😀ab😀")).toBe("😀**😀");
  });
});
