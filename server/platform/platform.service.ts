import { withTransaction } from "../db/transaction";
import { getEnv } from "../env";
import * as repo from "./platform.repository";
import type { TScreenLock, TSystemConfig, TScreenLockItem } from "./platform.schema";
import { LANGUAGES } from "../../common/languages";

/** Settings an administrator may override at run time; the environment gives the defaults. */
type TOverridable = "pay_enable" | "app_audio_enable" | "intelligent_agent_market";

export async function getSystemConfig(): Promise<TSystemConfig> {
  const env = getEnv();
  const overrides = ((await repo.findSetting("system_config")) ?? {}) as Partial<Record<TOverridable, boolean>>;
  return {
    domain: env.PUBLIC_DOMAIN,
    config: { market: env.MARKET, contact_phone: env.CONTACT_PHONE, default_ui_size: "medium", languages: [...LANGUAGES] },
    pay_enable: overrides.pay_enable ?? env.PAY_ENABLE,
    app_audio_enable: overrides.app_audio_enable ?? env.APP_AUDIO_ENABLE,
    private: env.PRIVATE_DEPLOYMENT,
    intelligent_agent_market: overrides.intelligent_agent_market ?? env.INTELLIGENT_AGENT_MARKET,
  };
}

export async function getScreenLock(): Promise<TScreenLock> {
  const rows = await repo.findScreenLockItems();
  const items = rows.map((r) => ({ img_name: r.imgName, img_url: r.imgUrl, screen_control: (r.screenControl === 1 ? 1 : 0) as 0 | 1 }));
  // Locked while any item asks for it (screen_control 1); an empty list means unlocked.
  return { screen_control: items.some((i) => i.screen_control === 1) ? 1 : 0, items };
}

export async function setScreenLock(items: TScreenLockItem[]): Promise<TScreenLock> {
  await withTransaction((tx) =>
    repo.replaceScreenLockItems(
      items.map((i) => ({ imgName: i.img_name, imgUrl: i.img_url, screenControl: i.screen_control })),
      tx,
    ),
  );
  return getScreenLock();
}

const HEARTBEAT_STALE_MS = 30_000;

export async function recordHeartbeat(name: string, startedAt: Date) {
  await repo.upsertHeartbeat(name, process.pid, startedAt);
}

/** Rejects when the database does not answer (the health check reports it down). */
export async function pingDatabase() {
  await repo.pingDatabase();
}

export async function getProcessStates(now = Date.now()) {
  const rows = await repo.findHeartbeats();
  return Object.fromEntries(rows.map((r) => [r.name, now - r.seenAt.getTime() < HEARTBEAT_STALE_MS ? "up" : "stale"]));
}
