// The workshop engine against the loopback fake model: each speech mode, hosts that misbehave,
// what each role's prompt holds (read from the requests the fake received), the person's turn,
// stops, loops, the money, and the run's price.
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { getRunView, postRunMessage, startDebugRun, stopRun } from "../../server/workshops/runs.service";
import { ZStartRunInput, type TDefinitionInput } from "../../server/workshops/workshops.schema";
import { PRICES } from "../../server/money/money.constants";
import { makeUser, useChatHarness } from "../helpers/chat-runtime";
import { fundAccount } from "../helpers/money";
import { carryToRest, eligibleIn, makeRoleAgent, makeWorkshopOf, requestsOf, runMessages, runRow } from "../helpers/workshops";

const h = useChatHarness();

const speakers = (msgs: { kind: string; roleName: string }[]) => msgs.filter((m) => m.kind !== "topic").map((m) => m.roleName);
const ledgerOf = async (runId: string) =>
  getDb().ledgerTransaction.findMany({ where: { idempotencyKey: { contains: runId } }, select: { idempotencyKey: true, kind: true } });

async function threeAgents(owner: Awaited<ReturnType<typeof makeUser>>, hostReply: (body: any) => string = () => "{}") {
  const host = await makeRoleAgent(h, owner, hostReply);
  const alice = await makeRoleAgent(h, owner, () => "Alice thinks prices should fall.");
  const bob = await makeRoleAgent(h, owner, () => "Bob says costs rise first.");
  const carol = await makeRoleAgent(h, owner, () => "Carol counts the votes.");
  return { host, alice, bob, carol };
}

const roles = (ids: { host: string; alice: string; bob: string; carol?: string }) => [
  { name: "Host", type: "agent" as const, agent_id: ids.host, description: "Keeps the panel on topic" },
  { name: "Alice", type: "agent" as const, agent_id: ids.alice, description: "Economist" },
  { name: "Bob", type: "agent" as const, agent_id: ids.bob, description: "Engineer" },
  ...(ids.carol ? [{ name: "Carol", type: "agent" as const, agent_id: ids.carol, description: "Clerk" }] : []),
];
const all = (a: Awaited<ReturnType<typeof threeAgents>>) => ({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId, carol: a.carol.agentId });

describe("speech modes", () => {
  it("sequential: takes turns in order until the cycles are done, with no host call, and charges the run once", async () => {
    const owner = await makeUser(h.api.base);
    const a = await threeAgents(owner);
    const ws = await makeWorkshopOf(owner, {
      roles: roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }),
      nodes: [{ name: "Panel", speech_mode: "sequential", roles: ["Alice", "Bob"], max_rounds: 10, max_cycles: 2 }],
    });
    const before = h.fake.received.length;
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Will prices fall?" }, "en");
    expect(await carryToRest(id)).toBe("ended");
    expect(speakers(await runMessages(id))).toEqual(["Alice", "Bob", "Alice", "Bob"]);
    const run = await runRow(id);
    expect(run).toMatchObject({ status: "ended", endReason: "cycles", hostCalls: 0 });
    // Only the two speakers were asked, and only to speak (streamed turns).
    expect(h.fake.received.slice(before).every((r) => r.key === a.alice.key || r.key === a.bob.key)).toBe(true);
    const postings = await ledgerOf(id);
    expect(postings.filter((p) => p.kind === "metered_charge")).toHaveLength(1);
    expect(postings.filter((p) => p.kind === "chat_charge")).toHaveLength(4);
  });

  it("free: follows an @mention, else the order, and ends at the round limit", async () => {
    const owner = await makeUser(h.api.base);
    const host = await makeRoleAgent(h, owner, () => "x");
    const alice = await makeRoleAgent(h, owner, () => "Over to you, @Carol.");
    const bob = await makeRoleAgent(h, owner, () => "Bob here.");
    const carol = await makeRoleAgent(h, owner, () => "Carol agrees.");
    const ws = await makeWorkshopOf(owner, {
      roles: [...roles({ host: host.agentId, alice: alice.agentId, bob: bob.agentId }), { name: "Carol", type: "agent", agent_id: carol.agentId }],
      nodes: [{ name: "Open floor", speech_mode: "free", roles: ["Alice", "Bob", "Carol"], max_rounds: 4, max_cycles: 5 }],
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Lunch?" }, "en");
    await carryToRest(id);
    expect(speakers(await runMessages(id))).toEqual(["Alice", "Carol", "Alice", "Carol"]);
    expect(await runRow(id)).toMatchObject({ endReason: "rounds", hostCalls: 0 });
  });

  it("on-demand: the host picks each speaker once a turn, its instruction reaches the speaker, and END ends the run", async () => {
    const owner = await makeUser(h.api.base);
    let asked = 0;
    const a = await threeAgents(owner, (body) => {
      asked += 1;
      if (asked > 3) return '{"next": "END", "instruction": ""}';
      const [first] = eligibleIn(body);
      return JSON.stringify({ next: first, instruction: `Give one number, ${first}` });
    });
    const ws = await makeWorkshopOf(owner, {
      roles: roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }),
      // A role may speak again: both stay eligible, so the host is asked every turn.
      nodes: [{ name: "Hosted", speech_mode: "on_demand", roles: ["Alice", "Bob"], host: "Host", max_rounds: 20, max_cycles: 5, allow_repeat: true }],
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Forecast" }, "en");
    await carryToRest(id);
    const msgs = await runMessages(id);
    expect(speakers(msgs)).toEqual(["Alice", "Alice", "Alice"]);
    expect(msgs.filter((m) => m.kind === "agent").map((m) => m.hostCalls)).toEqual([1, 1, 1]);
    expect(await runRow(id)).toMatchObject({ endReason: "host", hostCalls: 4 });
    expect(msgs[1].instruction).toBe("Give one number, Alice");
    const aliceAsked = requestsOf(h, a.alice.key)[0].messages;
    expect(aliceAsked[aliceAsked.length - 1].content).toContain("The host asks you: Give one number, Alice");
    // The developer sees the instructions; the view is the developer's.
    const view = await getRunView({ account: owner.actor, visitorId: null }, id);
    expect(view.messages.find((m) => m.role === "Alice")?.instruction).toBe("Give one number, Alice");
  });

  it("a host that always names the previous speaker never makes anyone speak twice in a row, and the run ends at its round limit", async () => {
    const owner = await makeUser(h.api.base);
    let previous = "";
    const a = await threeAgents(owner, () => JSON.stringify({ next: previous || "Alice", instruction: "again" }));
    const ws = await makeWorkshopOf(owner, {
      roles: roles(all(a)),
      nodes: [{ name: "Stubborn host", speech_mode: "on_demand", roles: ["Alice", "Bob", "Carol"], host: "Host", max_rounds: 6, max_cycles: 10 }],
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Loop me" }, "en");
    // The fake host learns who spoke last from the messages it is given.
    h.fake.setBehaviour(a.host.key, {
      reply: (body) => {
        const lines = (body.messages as { content: string }[]).map((m) => m.content).join("\n");
        previous = [...lines.matchAll(/\[(Alice|Bob|Carol)\]:/g)].pop()?.[1] ?? "Alice";
        return JSON.stringify({ next: previous, instruction: "again" });
      },
    });
    await carryToRest(id);
    const order = speakers(await runMessages(id));
    expect(order).toHaveLength(6);
    for (let i = 1; i < order.length; i++) expect(order[i]).not.toBe(order[i - 1]);
    const run = await runRow(id);
    expect(run.endReason).toBe("rounds");
    // The first answer (Alice, eligible) stands; every later one is refused, asked again once, then falls back.
    expect(run.hostCalls).toBeLessThanOrEqual(1 + 2 * 5);
  });

  it("a host that answers nonsense falls back to the next eligible role and the run still ends", async () => {
    const owner = await makeUser(h.api.base);
    const a = await threeAgents(owner, () => "I think Bob, or maybe Alice. Hard to say!");
    const ws = await makeWorkshopOf(owner, {
      roles: roles(all(a)),
      nodes: [{ name: "Confused host", speech_mode: "on_demand", roles: ["Alice", "Bob", "Carol"], host: "Host", max_rounds: 4, max_cycles: 10 }],
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Anything" }, "en");
    await carryToRest(id);
    expect(speakers(await runMessages(id))).toEqual(["Alice", "Bob", "Carol", "Alice"]);
    expect(await runRow(id)).toMatchObject({ endReason: "rounds", hostCalls: 8 });
  });

  it("ends a loop of two roles trading the same messages", async () => {
    const owner = await makeUser(h.api.base);
    const a = await threeAgents(owner);
    const ws = await makeWorkshopOf(owner, {
      roles: roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }),
      nodes: [{ name: "Echo", speech_mode: "free", roles: ["Alice", "Bob"], max_rounds: 50, max_cycles: 20 }],
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Agree?" }, "en");
    await carryToRest(id);
    expect(speakers(await runMessages(id))).toHaveLength(4);
    expect((await runRow(id)).endReason).toBe("loop");
  });
});

describe("what each role reads", () => {
  it("the receive range and the notification scope decide what a role's prompt holds", async () => {
    const owner = await makeUser(h.api.base);
    const host = await makeRoleAgent(h, owner, () => "HOST-LINE");
    const alice = await makeRoleAgent(h, owner, () => "ALICE-LINE whispers to @Bob");
    const bob = await makeRoleAgent(h, owner, () => "BOB-LINE for @Carol");
    const carol = await makeRoleAgent(h, owner, () => "CAROL-LINE");
    const definition: TDefinitionInput = {
      roles: [...roles({ host: host.agentId, alice: alice.agentId, bob: bob.agentId }), { name: "Carol", type: "agent", agent_id: carol.agentId }],
      nodes: [
        // Alice's line is told only to Bob (and the host): Carol, who reads everything she was told, never sees it.
        {
          name: "Whisper",
          speech_mode: "sequential",
          roles: ["Alice", "Bob", "Carol"],
          max_rounds: 3,
          max_cycles: 1,
          notification_scope: "mentioned",
          host: "Host",
        },
        // Host reads only the topic and the previous speaker's last line.
        { name: "Wrap-up", speech_mode: "sequential", roles: ["Host"], max_rounds: 1, max_cycles: 1, receive_range: "first_and_previous" },
      ],
    };
    const ws = await makeWorkshopOf(owner, definition);
    const { id } = await startDebugRun(owner.actor, ws, { topic: "TOPIC-LINE" }, "en");
    await carryToRest(id);
    expect(speakers(await runMessages(id))).toEqual(["Alice", "Bob", "Carol", "Host"]);
    const text = (key: string) => JSON.stringify(requestsOf(h, key)[0].messages);
    expect(text(bob.key)).toContain("ALICE-LINE");
    expect(text(carol.key)).not.toContain("ALICE-LINE");
    expect(text(carol.key)).toContain("BOB-LINE");
    expect(text(carol.key)).toContain("TOPIC-LINE");
    const hostPrompt = text(host.key);
    expect(hostPrompt).toContain("TOPIC-LINE");
    expect(hostPrompt).toContain("CAROL-LINE");
    expect(hostPrompt).not.toContain("BOB-LINE");
    expect((await runRow(id)).nodeEnds).toEqual(["rounds"]);
  });
});

describe("the person's turn, stops and money", () => {
  it("waits for the person's role, takes their words, and goes on", async () => {
    const owner = await makeUser(h.api.base);
    const a = await threeAgents(owner);
    const ws = await makeWorkshopOf(owner, {
      roles: [...roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }), { name: "Me", type: "user" }],
      nodes: [{ name: "Tutor", speech_mode: "sequential", roles: ["Alice", "Me"], max_rounds: 4, max_cycles: 2 }],
    });
    const viewer = { account: owner.actor, visitorId: null };
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Teach me" }, "en");
    expect(await carryToRest(id)).toBe("waiting");
    const waiting = await getRunView(viewer, id);
    expect(waiting).toMatchObject({ status: "waiting_user", waitingFor: "Me" });
    await expect(postRunMessage({ account: { id: "someone-else" }, visitorId: null }, id, "hi")).rejects.toMatchObject({ code: "not_found" });
    await postRunMessage(viewer, id, "MY-ANSWER is 42");
    await expect(postRunMessage(viewer, id, "again")).rejects.toMatchObject({ code: "workshop_not_your_turn" });
    expect(await carryToRest(id)).toBe("waiting");
    const aliceSecond = JSON.stringify(requestsOf(h, a.alice.key)[1].messages);
    expect(aliceSecond).toContain("[Me]: MY-ANSWER is 42");
    await stopRun(viewer, id);
    expect(await runRow(id)).toMatchObject({ status: "ended", endReason: "user" });
    await expect(postRunMessage(viewer, id, "late")).rejects.toMatchObject({ code: "workshop_run_ended" });
  });

  it("shows the person what the host asked of them, and only for their own turn", async () => {
    const owner = await makeUser(h.api.base);
    const a = await threeAgents(owner, (body) =>
      eligibleIn(body).includes("Me") ? '{"next": "Me", "instruction": "Tell us your budget"}' : '{"next": "Alice", "instruction": "Answer the person"}',
    );
    const ws = await makeWorkshopOf(owner, {
      roles: [...roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }), { name: "Me", type: "user" }],
      nodes: [{ name: "Desk", speech_mode: "on_demand", roles: ["Alice", "Me"], host: "Host", max_rounds: 4, max_cycles: 2 }],
    });
    const viewer = { account: owner.actor, visitorId: null };
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Plan a trip" }, "en");
    expect(await carryToRest(id)).toBe("waiting");
    expect(await getRunView(viewer, id)).toMatchObject({ waitingFor: "Me", waitingInstruction: "Tell us your budget" });
    await postRunMessage(viewer, id, "About 500");
    expect(await carryToRest(id)).toBe("waiting");
    const view = await getRunView(viewer, id);
    expect(view.messages.map((m) => m.role)).toEqual(["Me", "Me", "Alice"]);
    // The person is the only one left who may speak: no host was asked, so nothing is asked of them.
    expect(view).toMatchObject({ waitingFor: "Me", waitingInstruction: null });
    // Once answered, the person's instruction is the developer's note on their message like any other.
    expect(view.messages[1]).toMatchObject({ content: "About 500", instruction: "Tell us your budget" });
    await stopRun(viewer, id);
    expect(await getRunView(viewer, id)).toMatchObject({ status: "ended", waitingInstruction: null });
  });

  it("a hosted person's role is played by its agent", async () => {
    const owner = await makeUser(h.api.base);
    const a = await threeAgents(owner);
    const ws = await makeWorkshopOf(owner, {
      roles: [
        ...roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }),
        { name: "Student", type: "user", hosting: true, agent_id: a.bob.agentId },
      ],
      nodes: [{ name: "Tutor", speech_mode: "sequential", roles: ["Alice", "Student"], max_rounds: 2, max_cycles: 1 }],
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Teach me" }, "en");
    expect(await carryToRest(id)).toBe("ended");
    expect((await runMessages(id)).map((m) => m.content)).toEqual(["Teach me", "Alice thinks prices should fall.", "Bob says costs rise first."]);
  });

  it("a developer who cannot pay the run's price gets no run; one whose money runs out mid-run ends it as budget", async () => {
    const poor = await makeUser(h.api.base, { funded: false });
    const a = await threeAgents(poor);
    const ws = await makeWorkshopOf(poor, {
      roles: roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }),
      nodes: [{ name: "Panel", speech_mode: "sequential", roles: ["Alice", "Bob"], max_rounds: 10, max_cycles: 2 }],
    });
    const before = await getDb().workshopRun.count({ where: { workshopId: ws } });
    await expect(startDebugRun(poor.actor, ws, { topic: "Free lunch?" }, "en")).rejects.toMatchObject({ code: "balance_insufficient" });
    expect(await getDb().workshopRun.count({ where: { workshopId: ws } })).toBe(before);
    // The run's price and two replies' fees, no more.
    await fundAccount(poor.id, PRICES.workshopRunMicro + 2 * PRICES.chatMessageMicro);
    const { id } = await startDebugRun(poor.actor, ws, { topic: "Free lunch?" }, "en");
    await carryToRest(id);
    expect(speakers((await runMessages(id)).filter((m) => m.status === "done"))).toEqual(["Alice", "Bob"]);
    expect(await runRow(id)).toMatchObject({ status: "ended", endReason: "budget" });
  });

  it("ends at the run's turn budget", async () => {
    const owner = await makeUser(h.api.base);
    const a = await threeAgents(owner);
    const ws = await makeWorkshopOf(owner, {
      roles: roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }),
      nodes: [{ name: "Panel", speech_mode: "sequential", roles: ["Alice", "Bob"], max_rounds: 10, max_cycles: 5 }],
      limits: { max_turns: 3, max_minutes: 30 },
    });
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Long one" }, "en");
    await carryToRest(id);
    expect(speakers(await runMessages(id))).toHaveLength(3);
    expect((await runRow(id)).endReason).toBe("budget");
  });

  it("refuses another account's workshop, an incomplete one, and an empty topic, leaving no run", async () => {
    const owner = await makeUser(h.api.base);
    const other = await makeUser(h.api.base);
    const a = await threeAgents(owner);
    const ws = await makeWorkshopOf(owner, {
      roles: roles({ host: a.host.agentId, alice: a.alice.agentId, bob: a.bob.agentId }),
      nodes: [{ name: "Panel", speech_mode: "sequential", roles: ["Alice", "Bob"], max_rounds: 10, max_cycles: 2 }],
    });
    await expect(startDebugRun(other.actor, ws, { topic: "mine now" }, "en")).rejects.toMatchObject({ code: "not_found" });
    const { createWorkshop } = await import("../../server/workshops/workshops.service");
    const empty = await createWorkshop(owner.actor, { name: "empty", description: "", icon_url: "" });
    await expect(startDebugRun(owner.actor, empty.id, { topic: "go" }, "en")).rejects.toMatchObject({ code: "workshop_incomplete" });
    expect(ZStartRunInput.safeParse({ topic: "   " }).error?.issues[0].message).toBe("workshops:validation.topic");
    expect(await getDb().workshopRun.count({ where: { workshopId: { in: [ws, empty.id] } } })).toBe(0);
  });
});
