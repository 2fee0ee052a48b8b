import { describe, expect, it } from "vitest";
import { checkDefinition, newNode, newRole, placeIssue, renameRoleInNodes, toDefinitionValues, toFormPath, type TDefinitionValues } from "./definition-values";

const values = (over: Partial<TDefinitionValues> = {}): TDefinitionValues => ({
  roles: [
    { ...newRole("agent"), name: "Host", agent_id: "a1" },
    { ...newRole("agent"), name: "Alice", agent_id: "a2" },
    { ...newRole("user"), name: "Bob" },
  ],
  nodes: [{ ...newNode("Talk"), speech_mode: "on_demand", roles: ["Alice", "Bob"], host: "Host" }],
  limits: { max_turns: 20, max_minutes: 10 },
  ...over,
});

describe("the editor's definition", () => {
  it("passes a complete workshop as the server's schema parses it", () => {
    const checked = checkDefinition(values(), () => "text");
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(checked.definition.roles[2]).toMatchObject({ name: "Bob", type: "user", agent_id: "", hosting: false });
  });

  it("refuses with the schema's message keys, on the fields they name", () => {
    const v = values();
    v.nodes[0] = { ...v.nodes[0], host: "", max_rounds: null, speech_mode: "on_demand" };
    v.roles[1] = { ...v.roles[1], name: "x" };
    const checked = checkDefinition(v, () => "text");
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    const byPath = new Map(checked.issues.map((i) => [i.path.join("."), i.message]));
    expect(byPath.get("roles.1.name")).toBe("workshops:validation.role_name");
    expect(byPath.get("nodes.0.max_rounds")).toBe("workshops:validation.max_rounds_required");
  });

  it("applies the rounds limit of sequential speech and the host rule", () => {
    const v = values();
    v.nodes[0] = { ...v.nodes[0], speech_mode: "sequential", max_rounds: 11, host: "Bob" };
    const checked = checkDefinition(v, () => "text");
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining(["workshops:validation.max_rounds_sequential", "workshops:validation.host_agent"]),
    );
  });

  it("keeps picture and video agents to the last node with agents", () => {
    const v = values({
      nodes: [
        { ...newNode("One"), roles: ["Alice"] },
        { ...newNode("Two"), roles: ["Host"] },
      ],
    });
    const checked = checkDefinition(v, (id) => (id === "a2" ? "image" : "text"));
    expect(checked).toEqual({ ok: false, issues: [{ path: ["nodes", 0, "roles", 0], message: "workshops:validation.media_last_node" }] });
  });

  it("shows an issue on its field, or on its section when it concerns a whole list", () => {
    expect(placeIssue(["roles", 0, "agent_id"])).toEqual({ field: ["roles", 0, "agent_id"] });
    expect(placeIssue(["nodes", 1, "roles", 0])).toEqual({ field: ["nodes", 1, "roles"] });
    expect(placeIssue(["nodes", 0, "contents", 1, "text"])).toEqual({ field: ["nodes", 0, "contents", 1, "text"] });
    expect(placeIssue(["limits", "max_turns"])).toEqual({ field: ["limits", "max_turns"] });
    expect(placeIssue(["nodes"])).toEqual({ section: "nodes" });
    expect(placeIssue(["roles"])).toEqual({ section: "roles" });
    expect(toFormPath("definition.roles.0.agent_id")).toEqual(["roles", 0, "agent_id"]);
  });

  it("renames a role where nodes name it, and takes a removed one out", () => {
    const nodes = values().nodes;
    expect(renameRoleInNodes(nodes, "Host", "Chair")[0]).toMatchObject({ host: "Chair", roles: ["Alice", "Bob"] });
    expect(renameRoleInNodes(nodes, "Alice", "")[0]).toMatchObject({ roles: ["Bob"], host: "Host" });
  });

  it("starts a new workshop with one agent role and one node", () => {
    const v = toDefinitionValues(null, "Stage 1");
    expect(v.roles).toHaveLength(1);
    expect(v.nodes[0].name).toBe("Stage 1");
  });
});
