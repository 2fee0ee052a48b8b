import { describe, expect, it } from "vitest";
import { ZAgentInput } from "../../../server/agents/agents.schema";
import {
  bumpVersion,
  checkLogitBias,
  checkWholeForm,
  groupFieldErrors,
  newAgentInput,
  toAgentInput,
  toDebugVariables,
  toFormFieldName,
  toFormValues,
  type TVariableFormValues,
} from "./agent-form-values";

const valid = () => ({ ...newAgentInput("gpt-4o"), name: "作文助手", introduction: "Writes essays." });

describe("agent form values", () => {
  it("round-trips an agent through the form's yuan and JSON text", () => {
    const input = ZAgentInput.parse({
      ...valid(),
      sale_price_micro: 1_500_000,
      use_price_micro: 100_000,
      variables: [{ name: "topic", type: "select", options: ["a", "b"], default: "a", range: { min: 1, max: 20 } }],
      parameters: { temperature: 1.2, logit_bias: { "50256": -100 }, top_k: 3 },
    });
    const form = toFormValues(input);
    expect(form.sale_price).toBe(1.5);
    expect(form.use_price).toBe(0.1);
    expect(form.parameters.logit_bias).toBe('{"50256":-100}');
    expect(ZAgentInput.parse(toAgentInput(form))).toEqual(input);
  });

  it("leaves out an empty range, empty top_k and options of a fill-in variable", () => {
    const form = toFormValues(ZAgentInput.parse(valid()));
    form.variables = [
      { name: "x", prompt: "", required: false, type: "fill", options: ["stale"], default: "", range: { min: null, max: null }, associated: [] },
    ];
    const out = ZAgentInput.parse(toAgentInput(form));
    expect(out.variables[0].range).toBeUndefined();
    expect(out.variables[0].options).toEqual([]);
    expect(out.parameters.top_k).toBeUndefined();
  });

  it("lets cleared number inputs fall back to the schema's defaults", () => {
    const form = toFormValues(ZAgentInput.parse(valid()));
    const cleared = {
      ...form,
      keep_context: null,
      trial_count: null,
      parameters: { ...form.parameters, temperature: null, max_tokens: null },
    } as unknown as typeof form;
    const out = ZAgentInput.parse(toAgentInput(cleared));
    expect(out.keep_context).toBe(10);
    expect(out.trial_count).toBe(0);
    expect(out.parameters.temperature).toBe(0.7);
    expect(out.parameters.max_tokens).toBe(1024);
  });

  it("refuses logit bias that is not a JSON object of token ids within -100..100", () => {
    expect(checkLogitBias("")).toBeNull();
    expect(checkLogitBias('{"42": 5}')).toBeNull();
    expect(checkLogitBias("{nope")).toBe("validation.logit_bias");
    expect(checkLogitBias("[1]")).toBe("validation.logit_bias");
    expect(checkLogitBias('{"42": 101}')).toBe("validation.logit_bias");
    expect(checkLogitBias('{"abc": 1}')).toBe("validation.logit_bias");
  });

  it("maps server and schema paths onto the form's fields", () => {
    expect(toFormFieldName("agent.name")).toEqual(["name"]);
    expect(toFormFieldName("agent.sale_price_micro")).toEqual(["sale_price"]);
    expect(toFormFieldName("parameters.logit_bias.abc")).toEqual(["parameters", "logit_bias"]);
    expect(toFormFieldName("agent.variables.2.name")).toEqual(["variables", 2, "name"]);
    expect(toFormFieldName("variables.0.range")).toEqual(["variables", 0, "range", "max"]);
    expect(toFormFieldName("variables.0.options.3")).toEqual(["variables", 0, "options"]);
    expect(toFormFieldName("variables.1.range.max")).toEqual(["variables", 1, "range", "max"]);
    expect(
      groupFieldErrors([
        { path: "name", message: "a" },
        { path: "agent.name", message: "b" },
      ]),
    ).toEqual([{ name: ["name"], errors: ["a", "b"] }]);
  });

  it("finds refusals that span fields: too many plugins, low prices, then duplicate variables", () => {
    const form = toFormValues(ZAgentInput.parse(valid()));
    const v = { name: "x", prompt: "", required: false, type: "fill" as const, options: [], default: "", range: { min: null, max: null }, associated: [] };
    form.plugins = ["web_reader", "html_interpreter", "python_interpreter", "current_time"];
    form.use_price = 0.05;
    expect(checkWholeForm(form)).toEqual([
      { name: ["plugins"], errors: ["validation.plugins_max"] },
      { name: ["use_price"], errors: ["validation.price_minimum"] },
    ]);
    // The list-wide checks run once each field is right (as on the server), and land on the repeated name.
    form.plugins = ["web_reader"];
    form.use_price = 0.5;
    form.variables = [v, { ...v, name: "y" }, { ...v }];
    expect(checkWholeForm(form)).toEqual([{ name: ["variables", 2, "name"], errors: ["validation.variable_duplicate"] }]);
    expect(checkWholeForm(toFormValues(ZAgentInput.parse(valid())))).toEqual([]);
  });

  it("suggests the next version above the highest one", () => {
    expect(bumpVersion("1.0.0")).toBe("1.0.1");
    expect(bumpVersion("2.3")).toBe("2.3.1");
  });
  it("gives the debug chat the variables being edited: named ones, once each, options only for a choice", () => {
    const rows = [
      {
        name: " city ",
        prompt: "Which city?",
        required: true,
        type: "fill",
        options: ["x"],
        default: "Shanghai",
        range: { min: null, max: null },
        associated: [],
      },
      { name: "", prompt: "half typed", required: true, type: "fill", options: [], default: "", range: { min: null, max: null }, associated: [] },
      { name: "tone", prompt: "", required: false, type: "select", options: ["warm", "dry"], default: "", range: { min: 2, max: 10 }, associated: [] },
      { name: "city", prompt: "again", required: false, type: "fill", options: [], default: "", associated: [] },
      { name: "len", prompt: "", required: false, type: "fill", options: [], default: "", range: { min: 3, max: null }, associated: [] },
    ] as TVariableFormValues[];
    expect(toDebugVariables(rows)).toEqual([
      { name: "city", prompt: "Which city?", required: true, type: "fill", options: [], default: "Shanghai", range: undefined, associated: [] },
      { name: "tone", prompt: "", required: false, type: "select", options: ["warm", "dry"], default: "", range: { min: 2, max: 10 }, associated: [] },
      { name: "len", prompt: "", required: false, type: "fill", options: [], default: "", range: undefined, associated: [] },
    ]);
    expect(toDebugVariables(undefined)).toEqual([]);
  });
});
