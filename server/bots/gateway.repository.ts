// What the bot gateway reads and writes (Prisma only here). The lease columns are the lock per bot
// (docs/decisions/0010-bots-leases-packages-and-sends.md): an instance holds a bot while
// `lease_owner` is its id and `lease_until` is in the future, renews it well before it runs out,
// and writes the bot's state only while it holds it.
import type { Prisma } from "../db/generated/client";
import { getDb, type TDbOrTx } from "../db/client";
import { openCredentials } from "./bot-credentials";
import type { TBotChannel, TBotState } from "./bots.schema";

export type TGatewayBot = {
  id: string;
  appId: string;
  ownerAccountId: string;
  ownerLanguage: string;
  channel: TBotChannel;
  name: string;
  state: TBotState;
  stateDetail: string | null;
  credentials: Record<string, unknown>;
  greeting: string;
  groupReply: "mention" | "all";
  enabled: boolean;
  paidUntil: Date;
};

/** Bots nobody holds (or whose holder stopped renewing), taken for `owner` up to `limit`. */
export async function claimFreeBots(owner: string, leaseMs: number, limit: number, channels: TBotChannel[], ownerScope?: string[]): Promise<string[]> {
  if (limit <= 0 || !channels.length || (ownerScope && !ownerScope.length)) return [];
  const rows = await getDb().$queryRaw<{ id: string }[]>`
    UPDATE bot SET lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE id IN (
      SELECT id FROM bot
      WHERE deleted_at IS NULL AND enabled AND paid_until > now() AND (lease_until IS NULL OR lease_until < now())
        AND channel::text = ANY(${channels})
        AND (${ownerScope ? 1 : 0} = 0 OR owner_account_id = ANY(${ownerScope ?? []}))
      ORDER BY random() LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  return rows.map((r) => r.id);
}

/** Renews the leases `owner` still holds; returns the ids it holds now (the rest were lost). */
export async function renewLeases(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await getDb().$queryRaw<{ id: string }[]>`
    UPDATE bot SET lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE id = ANY(${ids}) AND lease_owner = ${owner} AND lease_until > now() AND deleted_at IS NULL AND enabled AND paid_until > now()
    RETURNING id`;
  return rows.map((r) => r.id);
}

export async function releaseLeases(owner: string, ids: string[]) {
  if (!ids.length) return;
  await getDb().bot.updateMany({ where: { id: { in: ids }, leaseOwner: owner }, data: { leaseOwner: null, leaseUntil: null } });
}

/** Lets go of a bot whoever holds it (its settings changed, it was paused or deleted): the holder drops it at its next renewal. */
export async function breakLease(botId: string, tx: TDbOrTx = getDb()) {
  await tx.bot.update({ where: { id: botId }, data: { leaseOwner: null, leaseUntil: null }, select: { id: true } });
}

const GATEWAY_BOT = {
  id: true,
  appId: true,
  ownerAccountId: true,
  channel: true,
  name: true,
  state: true,
  stateDetail: true,
  credentials: true,
  greeting: true,
  groupReply: true,
  enabled: true,
  paidUntil: true,
  owner: { select: { language: true } },
} as const satisfies Prisma.BotSelect;

function toGatewayBot(row: Prisma.BotGetPayload<{ select: typeof GATEWAY_BOT }>): TGatewayBot {
  return {
    id: row.id,
    appId: row.appId,
    ownerAccountId: row.ownerAccountId,
    ownerLanguage: row.owner.language,
    channel: row.channel,
    name: row.name,
    state: row.state,
    stateDetail: row.stateDetail,
    credentials: openCredentials(row.credentials),
    greeting: row.greeting,
    groupReply: row.groupReply === "all" ? "all" : "mention",
    enabled: row.enabled,
    paidUntil: row.paidUntil,
  };
}

export async function loadGatewayBot(id: string): Promise<TGatewayBot | null> {
  const row = await getDb().bot.findFirst({ where: { id, deletedAt: null }, select: GATEWAY_BOT });
  return row ? toGatewayBot(row) : null;
}

/** For a platform's callback to the web process: the bot of that channel, with its credentials, else null. */
export async function loadBotForCallback(id: string, channel: TBotChannel): Promise<TGatewayBot | null> {
  const bot = await loadGatewayBot(id);
  return bot && bot.channel === channel && bot.enabled ? bot : null;
}

export type THealthWrite = { state: TBotState; detail: string | null; loginQr?: string | null; loginName?: string | null };

/**
 * Writes the state the holder sees (only while `owner` holds the bot). Returns the state before,
 * or null when `owner` no longer holds the bot (nothing written).
 */
export async function writeHealth(botId: string, owner: string, h: THealthWrite): Promise<TBotState | null> {
  return getDb().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ state: TBotState }[]>`SELECT state::text AS state FROM bot WHERE id = ${botId} AND lease_owner = ${owner} FOR UPDATE`;
    if (!rows.length) return null;
    const before = rows[0].state;
    const data: Prisma.BotUncheckedUpdateInput = { state: h.state, stateDetail: h.detail, lastSeenAt: h.state === "online" ? new Date() : undefined };
    if (before !== h.state) data.stateChangedAt = new Date();
    if (h.loginQr !== undefined) data.loginQr = h.loginQr;
    if (h.loginName !== undefined) data.loginName = h.loginName;
    await tx.bot.update({ where: { id: botId }, data, select: { id: true } });
    return before;
  });
}

/** A webhook bot's first verified callback: it is online from then on. Returns true when the state changed. */
export async function markBotSeen(botId: string): Promise<boolean> {
  const now = new Date();
  const changed = await getDb().bot.updateMany({
    where: { id: botId, deletedAt: null, state: { in: ["deploying", "to_be_associated", "offline"] } },
    data: { state: "online", stateDetail: null, stateChangedAt: now, lastSeenAt: now },
  });
  if (!changed.count) await getDb().bot.updateMany({ where: { id: botId }, data: { lastSeenAt: now } });
  return changed.count > 0;
}

/** Whether a webhook bot's platform has called us before (then it is online, not waiting for a first callback). */
export async function wasSeen(botId: string): Promise<boolean> {
  const row = await getDb().bot.findUnique({ where: { id: botId }, select: { lastSeenAt: true } });
  return Boolean(row?.lastSeenAt);
}

/** Bots whose package ran out, marked expired (and let go). Returns their ids. */
export async function expireLapsedBots(): Promise<string[]> {
  const rows = await getDb().$queryRaw<{ id: string }[]>`
    UPDATE bot SET state = 'expired', state_detail = 'detail.package_expired', state_changed_at = now(), lease_owner = NULL, lease_until = NULL
    WHERE deleted_at IS NULL AND paid_until <= now() AND state <> 'expired'
    RETURNING id`;
  return rows.map((r) => r.id);
}

// Messages and conversations ----------------------------------------------------------------------

/** True the first time a message id is seen for a bot; false for a redelivery. */
export async function claimInbound(botId: string, externalId: string): Promise<boolean> {
  const n = await getDb().$executeRaw`INSERT INTO bot_inbound (bot_id, external_id) VALUES (${botId}, ${externalId}) ON CONFLICT DO NOTHING`;
  return n > 0;
}

/** The conversation's dialogue (null before its first answer), touching it as the latest. */
export async function touchConversation(c: {
  botId: string;
  sessionKey: string;
  kind: "contact" | "group";
  externalId: string;
  name: string;
}): Promise<string | null> {
  const row = await getDb().botConversation.upsert({
    where: { botId_sessionKey: { botId: c.botId, sessionKey: c.sessionKey } },
    create: { botId: c.botId, sessionKey: c.sessionKey, kind: c.kind, externalId: c.externalId, name: c.name },
    update: { lastMessageAt: new Date(), ...(c.name ? { name: c.name } : {}) },
    select: { dialogueId: true },
  });
  return row.dialogueId;
}

export async function setConversationDialogue(botId: string, sessionKey: string, dialogueId: string) {
  await getDb().botConversation.update({ where: { botId_sessionKey: { botId, sessionKey } }, data: { dialogueId }, select: { botId: true } });
}

/** Whether the dialogue still exists (a deleted one starts afresh). */
export async function dialogueExists(id: string) {
  return (await getDb().dialogue.count({ where: { id, deletedAt: null } })) > 0;
}

// Greetings and scheduled sends ----------------------------------------------------------------

/** Claims one send before it goes out: null when that occurrence was already claimed (by anyone). */
export async function claimDelivery(
  d: {
    botId: string;
    scheduleId?: string | null;
    kind: "scheduled" | "greeting";
    occurrenceKey: string;
    target: Record<string, unknown>;
    content: string;
    mediaItemId?: string | null;
    dueAt: Date;
    sentBy: string;
  },
  tx: TDbOrTx = getDb(),
): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO bot_delivery (id, bot_id, schedule_id, kind, occurrence_key, target, content, media_item_id, due_at, sent_by)
    VALUES (${cuid()}, ${d.botId}, ${d.scheduleId ?? null}, ${d.kind}, ${d.occurrenceKey}, ${JSON.stringify(d.target)}::jsonb, ${d.content},
      ${d.mediaItemId ?? null}, ${d.dueAt}, ${d.sentBy})
    ON CONFLICT (occurrence_key) DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/** Marks a claimed send sent or failed; `error` on a sent one notes what did not go with it. */
export async function finishDelivery(id: string, ok: boolean, error?: string) {
  const note = error ? error.slice(0, 500) : null;
  await getDb().botDelivery.update({
    where: { id },
    data: ok ? { state: "sent", sentAt: new Date(), error: note } : { state: "failed", error: note ?? "" },
    select: { id: true },
  });
}

export type TDueSchedule = {
  id: string;
  botId: string;
  /** The bot's owner: the library item is read as theirs. */
  ownerAccountId: string;
  content: string;
  mediaItemId: string | null;
  targets: unknown;
  sendAt: Date;
  loop: string;
  everyHours: number | null;
  utcOffsetMinutes: number;
  nextRunAt: Date;
};

export async function findDueSchedules(botIds: string[], now: Date): Promise<TDueSchedule[]> {
  if (!botIds.length) return [];
  const rows = await getDb().botSchedule.findMany({
    where: { botId: { in: botIds }, enabled: true, nextRunAt: { lte: now } },
    orderBy: { nextRunAt: "asc" },
    take: 100,
    select: {
      id: true,
      botId: true,
      content: true,
      mediaItemId: true,
      targets: true,
      sendAt: true,
      loop: true,
      everyHours: true,
      utcOffsetMinutes: true,
      nextRunAt: true,
      bot: { select: { ownerAccountId: true } },
    },
  });
  return rows.map(({ bot, ...s }) => ({ ...s, ownerAccountId: bot.ownerAccountId, nextRunAt: s.nextRunAt! }));
}

/**
 * Moves a schedule past the occurrence due at `due` and claims that occurrence's sends, in one
 * transaction: only the instance whose guarded update matched the due time gets the deliveries,
 * so two gateways (or a restart midway) never send an occurrence twice.
 */
export async function claimOccurrence(s: TDueSchedule, next: Date | null, owner: string): Promise<{ id: string; target: Record<string, unknown> }[]> {
  return getDb().$transaction(async (tx) => {
    const moved = await tx.botSchedule.updateMany({ where: { id: s.id, nextRunAt: s.nextRunAt }, data: { nextRunAt: next, lastRunAt: s.nextRunAt } });
    if (!moved.count) return [];
    const out: { id: string; target: Record<string, unknown> }[] = [];
    for (const target of (Array.isArray(s.targets) ? s.targets : []) as Record<string, unknown>[]) {
      const id = await claimDelivery(
        {
          botId: s.botId,
          scheduleId: s.id,
          kind: "scheduled",
          occurrenceKey: `s:${s.id}:${s.nextRunAt.toISOString()}:${target.kind}:${target.id}`,
          target,
          content: s.content,
          mediaItemId: s.mediaItemId,
          dueAt: s.nextRunAt,
          sentBy: owner,
        },
        tx,
      );
      if (id) out.push({ id, target });
    }
    return out;
  });
}

function cuid() {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}${Math.random().toString(36).slice(2, 6)}`.slice(0, 25);
}
