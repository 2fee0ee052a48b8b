import { describe, expect, it } from "vitest";
import { ZDefinition, ZNode, mediaNodeIssues, type TDefinitionInput, type TNode } from "../workshops.schema";
import { readHostAnswer } from "./host-answer";
import { isLoop, similarity } from "./loop-guard";
import { decideNextStep, mentionedRole, type TSpoken } from "./next-speaker";
import { notifiedRoles, toRoleTranscript, visibleMessages, type TRunMessage } from "./role-view";

const node = (over: Partial<TNode> = {}): TNode =>
  ZNode.parse({ name: "n", speech_mode: "sequential", roles: ["A", "B", "C"], max_rounds: 10, max_cycles: 3, ...over });
const said = (...roles: string[]): TSpoken[] => roles.map((role, i) => ({ role, content: `${role} says thing ${i}` }));

describe("the next speaker", () => {
  it("takes turns in order in sequential speech, and ends after the cycles", () => {
    const n = node({ max_cycles: 2 });
    const order: string[] = [];
    const spoken: TSpoken[] = [];
    for (;;) {
      const step = decideNextStep(n, spoken);
      if (step.kind !== "speak") {
        expect(step).toEqual({ kind: "end", reason: "cycles" });
        break;
      }
      order.push(step.role);
      spoken.push({ role: step.role, content: `turn ${spoken.length}` });
    }
    expect(order).toEqual(["A", "B", "C", "A", "B", "C"]);
  });

  it("ends at the round limit before the cycles", () => {
    expect(decideNextStep(node({ max_rounds: 2 }), said("A", "B"))).toEqual({ kind: "end", reason: "rounds" });
  });

  it("never repeats the previous speaker unless the node allows it, and drops roles at their cap", () => {
    expect(decideNextStep(node({ roles: ["A"], max_cycles: 5 }), said("A"))).toEqual({ kind: "end", reason: "no_speaker" });
    expect(decideNextStep(node({ roles: ["A"], max_cycles: 5, allow_repeat: true }), said("A"))).toEqual({ kind: "speak", role: "A" });
    // B is at its cap of 1: A spoke last, so C is the only one left.
    expect(decideNextStep(node({ speech_mode: "free", max_cycles: 1 }), said("B", "A"))).toEqual({ kind: "speak", role: "C" });
  });

  it("follows an @mention in free speech, else the order", () => {
    const n = node({ speech_mode: "free" });
    expect(decideNextStep(n, [{ role: "A", content: "what do you think, @C?" }])).toEqual({ kind: "speak", role: "C" });
    expect(decideNextStep(n, [{ role: "A", content: "no mention, @Cat is not a role" }])).toEqual({ kind: "speak", role: "B" });
    // A mention of the previous speaker is not followed.
    expect(decideNextStep(n, [{ role: "A", content: "@A again" }])).toEqual({ kind: "speak", role: "B" });
    expect(mentionedRole("@b and @c", ["B", "C"])).toBe("B");
  });

  it("asks the host only in on-demand speech with more than one eligible role", () => {
    const n = node({ speech_mode: "on_demand", host: "A" });
    expect(decideNextStep(n, said("A"))).toEqual({ kind: "ask_host", eligible: ["B", "C"], fallback: "B" });
    expect(decideNextStep(node({ speech_mode: "on_demand", host: "A", roles: ["A", "B"] }), said("A"))).toEqual({ kind: "speak", role: "B" });
  });

  it("ends a loop: two roles trading the same messages", () => {
    const loop = [
      { role: "A", content: "I disagree with you." },
      { role: "B", content: "No, I am right." },
      { role: "A", content: "I disagree with you!" },
      { role: "B", content: "No, I am right." },
    ];
    expect(isLoop(loop)).toBe(true);
    expect(decideNextStep(node({ speech_mode: "free", max_cycles: 10 }), loop)).toEqual({ kind: "end", reason: "loop" });
    expect(isLoop([...loop.slice(0, 3), { role: "B", content: "Fine, here is a new argument about costs." }])).toBe(false);
    expect(similarity("abc", "xyz")).toBe(0);
  });
});

describe("the host's answer", () => {
  it("reads JSON, in a fence or with words around it, matching names without case", () => {
    expect(readHostAnswer('```json\n{"next": "b", "instruction": "Give numbers"}\n```', ["B", "C"])).toEqual({
      ok: true,
      decision: { next: "B", instruction: "Give numbers" },
    });
    expect(readHostAnswer('Sure: {"next":"END"}', ["B"])).toEqual({ ok: true, decision: { next: "END", instruction: "" } });
  });

  it("refuses prose, broken JSON and a role that may not speak", () => {
    expect(readHostAnswer("Let B speak", ["B"]).ok).toBe(false);
    expect(readHostAnswer('{"next": "B",', ["B"]).ok).toBe(false);
    expect(readHostAnswer('{"next": "A"}', ["B", "C"])).toEqual({ ok: false, reason: '"A" may not speak now' });
  });
});

describe("what a role reads", () => {
  const roles = ZDefinition.parse({
    roles: [
      { name: "Host", type: "agent", agent_id: "a1" },
      { name: "Pro", type: "agent", agent_id: "a2" },
      { name: "Con", type: "agent", agent_id: "a3" },
      { name: "Me", type: "user" },
    ],
    nodes: [{ name: "n", speech_mode: "free", roles: ["Pro", "Con"], max_rounds: 5, max_cycles: 2 }],
  }).roles;
  const msgs: TRunMessage[] = [
    { seq: 0, role: "Me", kind: "topic", content: "Topic", visibleTo: [] },
    { seq: 1, role: "Pro", kind: "agent", content: "P1", visibleTo: ["Host", "Pro", "Con", "Me"] },
    { seq: 2, role: "Con", kind: "agent", content: "C1", visibleTo: ["Host", "Pro", "Con", "Me"] },
    { seq: 3, role: "Pro", kind: "agent", content: "P2", visibleTo: ["Pro", "Host", "Me"] },
  ];

  it("tells everyone, or only the mentioned roles with the host and the person", () => {
    expect(notifiedRoles(node({ notification_scope: "all" }), roles, "Pro", "x")).toEqual(["Host", "Pro", "Con", "Me"]);
    expect(notifiedRoles(node({ notification_scope: "mentioned", host: "Host" }), roles, "Pro", "@Con over to you")).toEqual(["Host", "Pro", "Con", "Me"]);
    expect(notifiedRoles(node({ notification_scope: "mentioned" }), roles, "Pro", "no one")).toEqual(["Pro", "Me"]);
  });

  it("reads everything it was told, the first and previous, or the previous only", () => {
    expect(visibleMessages(msgs, "Con", node({ receive_range: "all" })).map((m) => m.seq)).toEqual([0, 1, 2]);
    expect(visibleMessages(msgs, "Host", node({ receive_range: "first_and_previous" })).map((m) => m.seq)).toEqual([0, 3]);
    expect(visibleMessages(msgs, "Host", node({ receive_range: "previous" })).map((m) => m.seq)).toEqual([3]);
  });

  it("puts its own lines as replies and others' as named lines, merged", () => {
    expect(toRoleTranscript(msgs, "Con")).toEqual([
      { role: "user", content: "[Me]: Topic\n\n[Pro]: P1" },
      { role: "assistant", content: "C1" },
      { role: "user", content: "[Pro]: P2" },
    ]);
  });
});

describe("the definition's rules", () => {
  const base: TDefinitionInput = {
    roles: [
      { name: "Host", type: "agent", agent_id: "a1" },
      { name: "Pro", type: "agent", agent_id: "a2" },
    ],
    nodes: [{ name: "n", speech_mode: "sequential", roles: ["Pro", "Host"], max_rounds: 10, max_cycles: 2 }],
  };
  const messages = (d: unknown) => {
    const r = ZDefinition.safeParse(d);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it("accepts a sound workshop", () => expect(messages(base)).toEqual([]));

  it("refuses each broken rule with its own message", () => {
    const cases: Array<[string, unknown]> = [
      ["workshops:validation.role_name", { ...base, roles: [{ name: "a b", type: "agent", agent_id: "x" }] }],
      ["workshops:validation.role_name", { ...base, roles: [{ name: "A", type: "agent", agent_id: "x" }] }],
      ["workshops:validation.one_user_role", { ...base, roles: [...base.roles, { name: "U1", type: "user" }, { name: "U2", type: "user" }] }],
      ["workshops:validation.role_agent", { ...base, roles: [...base.roles, { name: "U1", type: "user", hosting: true }] }],
      ["workshops:validation.role_duplicate", { ...base, roles: [...base.roles, { name: "pro", type: "agent", agent_id: "x" }] }],
      ["workshops:validation.max_rounds_sequential", { ...base, nodes: [{ ...base.nodes[0], max_rounds: 11 }] }],
      ["workshops:validation.max_rounds_max", { ...base, nodes: [{ ...base.nodes[0], speech_mode: "free", max_rounds: 51 }] }],
      ["workshops:validation.max_rounds_required", { ...base, nodes: [{ ...base.nodes[0], max_rounds: undefined }] }],
      ["workshops:validation.max_cycles_required", { ...base, nodes: [{ ...base.nodes[0], max_cycles: undefined }] }],
      ["workshops:validation.host_required", { ...base, nodes: [{ ...base.nodes[0], speech_mode: "on_demand" }] }],
      ["workshops:validation.contents_max", { ...base, nodes: [{ ...base.nodes[0], contents: [1, 2, 3].map((i) => ({ title: `t${i}`, text: "x" })) }] }],
      [
        "workshops:validation.content_limit",
        {
          ...base,
          nodes: [0, 1].map((i) => ({ ...base.nodes[0], name: `n${i}`, contents: [{ title: "t", text: "x".repeat(15_001) }] })),
        },
      ],
      ["workshops:validation.node_role_unknown", { ...base, nodes: [{ ...base.nodes[0], roles: ["Nobody"] }] }],
    ];
    for (const [message, d] of cases) expect(messages(d), message).toContain(message);
  });

  it("lets picture and video agents speak only in the last node with agents", () => {
    const d = ZDefinition.parse({ ...base, nodes: [base.nodes[0], { ...base.nodes[0], name: "last" }] });
    const kinds: Record<string, string> = { a1: "chat", a2: "image" };
    expect(mediaNodeIssues(d, (id) => kinds[id])).toEqual([{ path: ["nodes", 0, "roles", 0], message: "workshops:validation.media_last_node" }]);
    expect(mediaNodeIssues({ ...d, nodes: [d.nodes[0]] }, (id) => kinds[id])).toEqual([]);
  });
});
