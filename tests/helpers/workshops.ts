// Workshops in integration tests: agents on the loopback fake model answering by a function of
// what they were asked, a workshop of them, and the engine carried in this process (as the worker's
// job would) until the run ends or waits for the person.
import crypto from "node:crypto";
import { getDb } from "../../server/db/client";
import { carryRun } from "../../server/workshops/engine/run-engine";
import { createWorkshop, saveDefinition } from "../../server/workshops/workshops.service";
import { ZDefinition, type TDefinitionInput } from "../../server/workshops/workshops.schema";
import type { TKeyBehaviour } from "../fakes/fake-openai";
import { makeAgent, type TUser } from "./chat-runtime";

type THarness = { fake: { base: string; setBehaviour: (k: string, b: TKeyBehaviour) => void; received: { key: string; body: any }[] } };

/** A published agent whose every answer is `reply(body)`; its key tells its requests apart. */
export async function makeRoleAgent(h: THarness, owner: TUser, reply: (body: any) => string) {
  return makeAgent(h, owner, { publish: true, behaviour: { reply, stream: { chunks: 2 } } });
}

export async function makeWorkshopOf(owner: TUser, definition: TDefinitionInput) {
  const { id } = await createWorkshop(owner.actor, { name: `ws ${crypto.randomBytes(3).toString("hex")}`, description: "", icon_url: "" });
  await saveDefinition(owner.actor, { id, revision: 1, definition: ZDefinition.parse(definition) });
  return id;
}

/** Carries the run in this process until it ends or waits for the person; answers the last step's result. */
export async function carryToRest(runId: string) {
  for (let i = 0; i < 20; i++) {
    const r = await carryRun(runId, "test-worker");
    if (r !== "continue" && r !== "busy") return r;
  }
  throw new Error("the run did not come to rest");
}

export async function runMessages(runId: string) {
  return getDb().workshopMessage.findMany({ where: { runId }, orderBy: { seq: "asc" } });
}

export async function runRow(runId: string) {
  return getDb().workshopRun.findUniqueOrThrow({ where: { id: runId } });
}

/** The last user message the fake received for `key`: what the role was asked, with its transcript. */
export function requestsOf(h: THarness, key: string) {
  return h.fake.received.filter((r) => r.key === key && r.body?.stream).map((r) => r.body as { messages: { role: string; content: string }[] });
}

/** The host's answer to a question naming the eligible roles ("Choose one of: A, B; or END"). */
export const eligibleIn = (body: any): string[] => {
  const last = String(body.messages?.[body.messages.length - 1]?.content ?? "");
  const m = /Choose one of: ([^;]+);/.exec(last);
  return m ? m[1].split(", ").map((s) => s.trim()) : [];
};
