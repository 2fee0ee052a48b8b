// The create form kept in this tab while its owner tops up on the sandbox's cashier page (which
// leaves the page), and put back when they return. Secrets are left out: they are typed again.
import { SECRET_FIELDS, type TBotChannel } from "../../../server/bots/bots.schema";

const KEY = "zelin:bot-draft";
const KEEP_MS = 30 * 60_000;

export type TBotDraft = {
  name: string;
  agent_id?: string;
  channel: TBotChannel;
  credentials: Record<string, unknown>;
  group_reply: "mention" | "all";
  greeting: string;
};

export function keepBotDraft(values: TBotDraft) {
  const secrets = new Set(SECRET_FIELDS[values.channel] ?? []);
  const credentials = Object.fromEntries(Object.entries(values.credentials ?? {}).filter(([k]) => !secrets.has(k)));
  window.sessionStorage.setItem(KEY, JSON.stringify({ at: Date.now(), values: { ...values, credentials } }));
}

/** The draft kept in the last half hour, once (it is forgotten as it is read). */
export function takeBotDraft(): TBotDraft | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(KEY) ?? "null") as { at: number; values: TBotDraft } | null;
    window.sessionStorage.removeItem(KEY);
    return kept && Date.now() - kept.at < KEEP_MS ? kept.values : null;
  } catch {
    return null;
  }
}

export function forgetBotDraft() {
  window.sessionStorage.removeItem(KEY);
}
