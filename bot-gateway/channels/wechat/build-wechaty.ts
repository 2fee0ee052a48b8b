// A wechaty instance for one bot, on the puppet the settings name (WECHATY_PUPPET, with
// WECHATY_PUPPET_TOKEN for puppets that take one). Wechaty keeps the puppet's session in a memory
// card, by default `<name>.memory-card.json` in the working directory: ours live in
// DATA_DIR/wechaty/<botId>.memory-card.json (so wechat4u logs back in after a restart without a
// new scan), and the mock puppet keeps its card in memory.
import fs from "node:fs/promises";
import path from "node:path";
import { WechatyBuilder, type OfficialPuppetNpmName, type Wechaty } from "wechaty";
import { getEnv } from "../../../server/env";

export const MOCK_PUPPET = "wechaty-puppet-mock";

export type TBuiltWechaty = { bot: Wechaty; /** Forgets the instance (the mock registry) once stopped. */ release(): void };

export async function buildWechaty(botId: string): Promise<TBuiltWechaty> {
  const env = getEnv();
  if (env.WECHATY_PUPPET === MOCK_PUPPET) {
    // Loaded only when asked for: the mock pulls in faker and is no part of a real deployment.
    const { createMockPuppet } = await import("./mock-puppet");
    const { puppet, release } = createMockPuppet(botId);
    return { bot: WechatyBuilder.build({ puppet }), release };
  }
  const cardPath = memoryCardPath(botId);
  await fs.mkdir(path.dirname(cardPath), { recursive: true });
  const bot = WechatyBuilder.build({
    name: cardPath,
    puppet: env.WECHATY_PUPPET as OfficialPuppetNpmName,
    puppetOptions: env.WECHATY_PUPPET_TOKEN ? { token: env.WECHATY_PUPPET_TOKEN } : {},
  });
  return { bot, release: () => undefined };
}

/**
 * Stops an instance without the wechat4u puppet's own logout handling: wechat4u's stop() logs the
 * account out on WeChat's side and then reports "logout", on which the puppet deletes the saved
 * session and calls start() on the client it has just dropped (an unhandled rejection, which would
 * end the gateway process; when WeChat cannot be reached the same handler restarts it in a tight
 * loop). With `keepSession` the WeChat login survives, so the bot's next start (here, or on the
 * instance that takes it over) resumes it without a scan.
 */
export async function stopWechaty(bot: Wechaty, opts: { keepSession: boolean }): Promise<void> {
  let puppet: unknown;
  try {
    puppet = bot.puppet;
  } catch {
    return; // never got a puppet: nothing was started
  }
  const client = (puppet as { wechat4u?: { removeAllListeners?: (event: string) => void; logout?: () => Promise<unknown> } }).wechat4u;
  if (client?.removeAllListeners) {
    client.removeAllListeners("logout");
    if (opts.keepSession) client.logout = () => Promise.resolve();
  }
  await bot.stop();
}

/** Where a bot's wechaty session is kept (without the `.memory-card.json` wechaty adds). */
export function memoryCardPath(botId: string): string {
  return path.join(getEnv().DATA_DIR, "wechaty", botId.replace(/[^A-Za-z0-9_-]/g, "_"));
}

/** Forgets a bot's saved session, so its next start asks for a new scan. */
export async function forgetSession(botId: string): Promise<void> {
  await fs.rm(`${memoryCardPath(botId)}.memory-card.json`, { force: true });
}
