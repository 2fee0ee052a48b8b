// The variable rules the runtime and the chat pages share: required (a default counts, blank does
// not), options, length range, and the first problem in the agent's order.
import { describe, expect, it } from "vitest";
import { findVariableProblems, resolveVariableValues, type TVariableSpec } from "./variable-values";

const city: TVariableSpec = { name: "city", required: true, type: "fill", options: [], default: "" };
const tone: TVariableSpec = { name: "tone", required: true, type: "select", options: ["formal", "casual"], default: "casual" };
const nick: TVariableSpec = { name: "nick", required: false, type: "fill", options: [], default: "", range: { min: 2, max: 4 } };

describe("variable values", () => {
  it("names each variable at fault, in the agent's order", () => {
    expect(findVariableProblems([city, tone, nick], { city: "  ", tone: "angry", nick: "a" })).toEqual([
      { path: "city", message: "validation.variable_missing", params: { name: "city" } },
      { path: "tone", message: "validation.variable_not_option", params: { name: "tone" } },
      { path: "nick", message: "validation.variable_length", params: { name: "nick", min: 2, max: 4 } },
    ]);
  });

  it("fills defaults, trims values and leaves an optional one empty", () => {
    expect(resolveVariableValues([city, tone, nick], { city: " Macau " })).toEqual({ ok: true, values: { city: "Macau", tone: "casual", nick: "" } });
    expect(findVariableProblems([nick], { nick: "abcde" })).toHaveLength(1);
    expect(findVariableProblems([nick], { nick: "abcd" })).toEqual([]);
    expect(resolveVariableValues([], {})).toEqual({ ok: true, values: {} });
  });
});
