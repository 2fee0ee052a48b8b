import { describe, expect, it } from "vitest";
import { ZVariable } from "../agents/agents.schema";
import { estimateTokens } from "../lib/token-estimate";
import { assemblePrompt, resolveVariables } from "./prompt-assembly";

const v = (x: object) => ZVariable.parse(x);
const agent = {
  role_style: "你是一名{{领域}}顾问，语气{{语气}}。",
  prompt: "回答关于 {{领域}} 的问题。",
  variables: [v({ name: "领域", type: "fill", required: true }), v({ name: "语气", type: "select", options: ["正式", "轻松"], default: "正式" })],
  keep_context: 1,
  out_of_scope_reply: "这个问题我暂时无法回答。",
};

describe("prompt assembly", () => {
  it("fills variables, with defaults, into role and prompt", () => {
    const { messages } = assemblePrompt({ agent, values: { 领域: "税务" }, history: [], userMessage: "个税怎么算？" });
    expect(messages[0].role).toBe("system");
    expect(messages[0].content).toContain("你是一名税务顾问，语气正式。");
    expect(messages[0].content).toContain("回答关于 税务 的问题。");
    expect(messages[0].content).toContain("这个问题我暂时无法回答。");
    expect(messages.at(-1)).toEqual({ role: "user", content: "个税怎么算？" });
  });

  it("refuses a required variable left empty, before anything else", () => {
    expect(() => assemblePrompt({ agent, values: { 领域: "  " }, history: [], userMessage: "hi" })).toThrowError(
      expect.objectContaining({ code: "validation_failed" }),
    );
  });

  it("refuses a selection that is not one of the options", () => {
    expect(() => resolveVariables(agent.variables, { 领域: "税务", 语气: "愤怒" })).toThrow();
  });

  it("keeps only the configured number of past turns", () => {
    const history = [
      { role: "user" as const, content: "q1" },
      { role: "assistant" as const, content: "a1" },
      { role: "user" as const, content: "q2" },
      { role: "assistant" as const, content: "a2" },
    ];
    const { messages } = assemblePrompt({ agent, values: { 领域: "税务" }, history, userMessage: "q3" });
    expect(messages.slice(1).map((m) => m.content)).toEqual(["q2", "a2", "q3"]);
  });

  it("adds ranked passages while the budget lasts, and reports which were used", () => {
    const passages = [1, 2, 3].map((i) => ({ id: `p${i}`, title: `T${i}`, text: "字".repeat(300) }));
    const { messages, usedPassages } = assemblePrompt({ agent, values: { 领域: "税务" }, history: [], userMessage: "?", passages, budgetTokens: 700 });
    expect(usedPassages.map((p) => p.id)).toEqual(["p1", "p2"]);
    expect(messages[0].content).toContain("[1] T1");
    expect(messages[0].content).not.toContain("T3");
  });

  it("truncates a long document to what is left of the budget", () => {
    const { messages } = assemblePrompt({
      agent,
      values: { 领域: "税务" },
      history: [],
      userMessage: "?",
      document: { name: "合同.docx", text: "条".repeat(5000) },
      budgetTokens: 500,
    });
    expect(estimateTokens(messages[0].content)).toBeLessThanOrEqual(520);
    expect(messages[0].content).toContain("合同.docx");
  });
});
