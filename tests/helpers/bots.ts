// Bots for tests: an owner who may have bots (professional edition, funded for the bot
// package and replies), a bot made through the real service (its BOT app, the package paid), and
// an in-process gateway with short lease, scan and tick times.
import crypto from "node:crypto";
import { getDb } from "../../server/db/client";
import { createBot } from "../../server/bots/bots.service";
import type { TBotChannel } from "../../server/bots/bots.schema";
import { startGateway, type TGateway, type TGatewayOptions } from "../../bot-gateway/core/gateway";
import { makeAppOwner, makeLiveAgent, type TTestActor } from "./apps";
import { fundAccount } from "./money";

// Test files share one database and run side by side: each file's gateways take only the bots of
// the owners this file made, and listen on a queue of the file's own.
const owners: string[] = [];
process.env.BOTS_QUEUE ??= `bots-test-${crypto.randomBytes(4).toString("hex")}`;
/** The owners made by this test file (a gateway process started by the file takes their bots only). */
export const botOwnersOfThisFile = () => [...owners];

/** A professional account with 300 Z of gift credit: three bot packages and thousands of replies. */
export async function makeBotOwner(opts: { edition?: "basic" | "professional" | "flagship"; funds?: number } = {}): Promise<TTestActor> {
  const owner = await makeAppOwner({ edition: opts.edition ?? "professional", funded: false });
  if (opts.funds !== 0) await fundAccount(owner.id, opts.funds ?? 300_000_000);
  owners.push(owner.id);
  return owner;
}

export type TTestBotOptions = {
  channel: TBotChannel;
  credentials?: Record<string, unknown>;
  greeting?: string;
  groupReply?: "mention" | "all";
  /** The BOT app's free uses per day (0: unlimited, as an app that sets no rule). */
  freePerDay?: number;
  /** Overrides of the live agent's config (an agent on the offline model by default). */
  agentConfig?: Record<string, unknown>;
  name?: string;
};

/** A bot of `owner` through createBot (the package paid), its app's use rules set as asked. */
export async function makeTestBot(owner: TTestActor, o: TTestBotOptions) {
  const agentId = await makeLiveAgent(owner, o.agentConfig ?? {});
  const { bot_id, app_id } = await createBot(owner, {
    name: o.name ?? "测试机器人",
    agent_id: agentId,
    channel: o.channel,
    credentials: o.credentials ?? {},
    group_reply: o.groupReply ?? "mention",
    greeting: o.greeting ?? "",
  });
  if (o.freePerDay) await getDb().app.update({ where: { id: app_id }, data: { freePerDay: o.freePerDay } });
  return { botId: bot_id, appId: app_id, agentId };
}

/** Short lease, scan and tick times, and only the bots of this file's owners. */
export function testGatewayOptions(opts: TGatewayOptions = {}): TGatewayOptions {
  return { leaseMs: 3_000, scanMs: 300, tickMs: 200, claimPerScan: 50, ownerScope: botOwnersOfThisFile, ...opts };
}

/** An in-process gateway instance with test timings; stop it in afterEach/afterAll. */
export async function startTestGateway(opts: TGatewayOptions = {}): Promise<TGateway> {
  return startGateway(testGatewayOptions(opts));
}

/** Polls `fn` until it returns something truthy (returned), or fails after `ms`. */
export async function waitFor<T>(fn: () => T | Promise<T>, ms = 10_000, what = "condition"): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`waitFor: ${what} not met within ${ms} ms${last ? `: ${(last as Error).message}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function botRow(botId: string) {
  return getDb().bot.findUniqueOrThrow({ where: { id: botId } });
}

export async function botUses(appId: string) {
  return getDb().appUse.findMany({ where: { appId }, orderBy: { createdAt: "asc" } });
}
