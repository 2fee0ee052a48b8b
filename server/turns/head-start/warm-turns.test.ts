// Which readings are kept warm and which turns may use them (warm-turns.ts); the integration test
// (tests/integration/warm-turns.test.ts) shows the early requests themselves.
import { describe, expect, it } from "vitest";
import { PRICES } from "../../money/money.constants";
import type { TTurnContext } from "../turn";
import { ZSendMessageInput } from "../../dialogues/chat.schema";
import { forgetTurn, recallTurn, rememberTurn, WARM_TTL_MS, type TWarmTurn } from "./warm-turns";

const FEE = PRICES.chatMessageMicro;
let n = 0;

function reading(over: { trainingSets?: string[]; balance?: number; agentUse?: boolean; modelEnabled?: boolean } = {}): TWarmTurn {
  const ctx = {
    agent: { agentId: "agent1", versionId: "v1", name: "a", avatarUrl: null, config: { training_set_ids: over.trainingSets ?? [] } },
    existing: { id: "d1" },
    rows: [{ id: "m1" }],
    model: { key: "m", supportsTools: true, contextWindow: 8000, enabled: over.modelEnabled ?? true },
    document: { doc: { id: "doc1" } },
    bill: {
      payer: "acc",
      refusal: "balance_insufficient",
      known: { gift: over.balance ?? 100 * FEE, spendable: 0 },
      memo: { agentId: "agent1", agentName: "a" },
      agentUse: over.agentUse ? { basis: "use", priceMicro: 1000, consumerAccountId: "acc", developerAccountId: "dev" } : null,
    },
  } as unknown as TTurnContext;
  return { account: { id: "acc" } as TWarmTurn["account"], ctx };
}

const input = (body: Record<string, unknown> = {}) => ZSendMessageInput.parse({ agent_id: "agent1", content: "hi", ...body });
const session = () => `s${++n}`;
const quota = { chatsToday: 0, chatsPerDay: 200 };

describe("warm turns", () => {
  it("keeps a reading without its dialogue, messages and document, for a conversation's pauses", () => {
    const s = session();
    const now = Date.now();
    rememberTurn(s, "debug", "agent1", reading(), quota, now);
    const warm = recallTurn(s, "debug", input(), now + 1000);
    expect(warm?.ctx).toMatchObject({ existing: null, rows: [], document: null });
    expect(recallTurn(s, "live", input(), now)).toBeNull();
    expect(recallTurn(s, "debug", input({ agent_id: "agent2" }), now)).toBeNull();
    expect(recallTurn(session(), "debug", input(), now)).toBeNull();
    expect(recallTurn(s, "debug", input(), now + WARM_TTL_MS + 1)).toBeNull();
    // Gone once expired.
    expect(recallTurn(s, "debug", input(), now)).toBeNull();
  });

  it("only turns that start a dialogue with nothing else to read use it", () => {
    const s = session();
    rememberTurn(s, "debug", "agent1", reading(), quota);
    for (const body of [
      { dialogue_id: "d1" },
      { regenerate_message_id: "m1", content: "" },
      { ufids: ["f1"] },
      { images: ["/files/a.png"] },
      { app_id: "app1" },
    ]) {
      expect(recallTurn(s, "debug", input(body))).toBeNull();
    }
    expect(recallTurn(s, "debug", input())).not.toBeNull();
    forgetTurn(s, "debug", "agent1");
    expect(recallTurn(s, "debug", input())).toBeNull();
  });

  it("keeps no reading that needs more reads or may not pay for two turns, and drops the one before", () => {
    const refused: Array<[ReturnType<typeof reading>, typeof quota]> = [
      [reading({ trainingSets: ["t1"] }), quota],
      [reading({ agentUse: true }), quota],
      [reading({ modelEnabled: false }), quota],
      [reading({ balance: 2 * FEE - 1 }), quota],
      [reading(), { chatsToday: 199, chatsPerDay: 200 }],
    ];
    for (const [r, q] of refused) {
      const s = session();
      rememberTurn(s, "debug", "agent1", reading(), quota);
      rememberTurn(s, "debug", "agent1", r, q);
      expect(recallTurn(s, "debug", input())).toBeNull();
    }
    const s = session();
    rememberTurn(s, "debug", "agent1", reading({ balance: 2 * FEE }), { chatsToday: 198, chatsPerDay: 200 });
    expect(recallTurn(s, "debug", input())).not.toBeNull();
  });
});
