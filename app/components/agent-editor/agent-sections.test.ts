import { describe, expect, it } from "vitest";
import { ZAgentInput } from "../../../server/agents/agents.schema";
import { newAgentInput, toFormValues } from "./agent-form-values";
import { SECTION_KEYS, sectionOfField, sectionsOfFields, startOpenSections } from "./agent-sections";

const form = (over: Record<string, unknown> = {}) => toFormValues(ZAgentInput.parse({ ...newAgentInput("m"), name: "a", introduction: "b", ...over }));

describe("agent editor sections", () => {
  it("places every field of the agent in one section", () => {
    const fields = Object.keys(form()).filter((k) => k !== "sale_price" && k !== "use_price" && k !== "purchase_price");
    for (const f of [...fields, "sale_price", "use_price", "purchase_price"]) expect(sectionOfField(f), f).not.toBeNull();
    expect(sectionOfField(["variables", 2, "range", "max"])).toBe("variables");
    expect(sectionOfField(["parameters", "logit_bias"])).toBe("model");
    expect(sectionOfField("use_price")).toBe("pricing");
    expect(sectionOfField("nothing")).toBeNull();
  });

  it("names the sections of refused fields once each, in the editor's order", () => {
    expect(sectionsOfFields([["use_price"], ["name"], ["variables", 0, "name"], ["version"], ["unknown"]])).toEqual(["basics", "variables", "pricing"]);
    expect(sectionsOfFields([])).toEqual([]);
  });

  it("opens the core sections of a new agent and folds the empty rest", () => {
    expect(startOpenSections(form())).toEqual(["basics", "prompt", "model", "training_sets"]);
  });

  it("also opens the sections that already hold settings", () => {
    const open = startOpenSections(form({ variables: [{ name: "city", type: "fill" }], plugins: ["current_time"], use_price_micro: 100_000 }));
    expect(open).toEqual(["basics", "prompt", "model", "variables", "training_sets", "abilities", "pricing"]);
    expect(startOpenSections(form({ networking: true }))).toContain("abilities");
    expect(SECTION_KEYS.at(-1)).toBe("versions");
    expect(open).not.toContain("versions");
  });
});
