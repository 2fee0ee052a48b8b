// A worker killed in the middle of a workshop turn: a real worker process carries the run and is
// killed (SIGKILL, no goodbye) while the second speaker's reply streams. Once its lease lapses the
// sweep hands the run to a second worker, which answers that same turn again and finishes the run:
// every turn charged once, the run's price once, no turn lost or repeated.
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { PRICES } from "../../server/money/money.constants";
import { startDebugRun } from "../../server/workshops/runs.service";
import { makeUser, useChatHarness } from "../helpers/chat-runtime";
import { startWorker } from "../helpers/platform";
import { makeRoleAgent, makeWorkshopOf, runMessages, runRow } from "../helpers/workshops";

const h = useChatHarness();
const workers: { stop: () => Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

const workerEnv = { WORKSHOP_SWEEP_MS: "500", WORKSHOP_LEASE_MS: "2000" };

async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Gift credit and coins together: a charge takes the gift credit first. */
const balanceOf = async (accountId: string) => {
  const rows = await getDb().ledgerAccount.findMany({ where: { id: { in: [`spendable:${accountId}`, `gift:${accountId}`] } }, select: { balanceMicro: true } });
  return rows.reduce((n, r) => n + Number(r.balanceMicro), 0);
};

describe("a worker killed mid-turn", () => {
  it("leaves the run to the next worker, which resumes the same turn without charging it twice", async () => {
    const owner = await makeUser(h.api.base);
    const alice = await makeRoleAgent(h, owner, () => "Alice opens.");
    const bob = await makeRoleAgent(h, owner, () => "Bob answers slowly, word by word, with a long answer.");
    // Bob's reply drips for a few seconds: the worker dies while it streams.
    h.fake.setBehaviour(bob.key, { reply: () => "Bob answers slowly, word by word, with a long answer.", stream: { chunks: 30, delayMs: 200 } });
    const ws = await makeWorkshopOf(owner, {
      roles: [
        { name: "Alice", type: "agent", agent_id: alice.agentId },
        { name: "Bob", type: "agent", agent_id: bob.agentId },
      ],
      nodes: [{ name: "Panel", speech_mode: "sequential", roles: ["Alice", "Bob"], max_rounds: 10, max_cycles: 2 }],
    });
    const before = await balanceOf(owner.id);
    const first = await startWorker(workerEnv);
    workers.push(first);
    const { id } = await startDebugRun(owner.actor, ws, { topic: "Crash course" }, "en");

    await waitFor(
      "Bob's reply to be streaming",
      () => runMessages(id),
      (ms) => ms.some((m) => m.roleName === "Bob" && m.status === "streaming" && m.content.length > 0),
    );
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    const cut = (await runMessages(id)).find((m) => m.roleName === "Bob")!;
    expect(cut.status).toBe("streaming");

    h.fake.setBehaviour(bob.key, { reply: () => "Bob answers.", stream: { chunks: 2 } });
    const second = await startWorker(workerEnv);
    workers.push(second);
    const run = await waitFor(
      "the second worker to finish the run",
      () => runRow(id),
      (r) => r.status === "ended",
    );
    expect(run.endReason).toBe("cycles");
    const msgs = await runMessages(id);
    expect(msgs.map((m) => [m.seq, m.roleName, m.status])).toEqual([
      [0, "user", "done"],
      [1, "Alice", "done"],
      [2, "Bob", "done"],
      [3, "Alice", "done"],
      [4, "Bob", "done"],
    ]);
    // The cut turn was answered again under its own id: its message holds the new reply.
    expect(msgs.find((m) => m.id === cut.id)?.content).toBe("Bob answers.");
    const postings = await getDb().ledgerTransaction.findMany({ where: { idempotencyKey: { contains: id } }, select: { idempotencyKey: true } });
    const keys = postings.map((p) => p.idempotencyKey);
    expect(keys.filter((k) => k.startsWith("chat:")).sort()).toEqual(
      msgs
        .filter((m) => m.kind === "agent")
        .map((m) => `chat:${m.id}`)
        .sort(),
    );
    expect(keys.filter((k) => k.startsWith("meter:"))).toHaveLength(1);
    expect(await balanceOf(owner.id)).toBe(before - PRICES.workshopRunMicro - 4 * PRICES.chatMessageMicro);
  });
});
