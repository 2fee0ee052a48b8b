// The only queries of the model gateway: models, channels, channel failures and request logs.
import { executeDirect, queryDirect } from "../db/direct-pool";
import { getDb, type TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { TChannelState, TChannelType } from "./models.schema";
import type { TModelKind } from "./model-kinds";

const MODEL = {
  id: true,
  key: true,
  displayName: true,
  kind: true,
  upstreamModel: true,
  contextWindow: true,
  inputPriceMicro: true,
  outputPriceMicro: true,
  supportsTools: true,
  supportsReasoning: true,
  unitPriceMicro: true,
  enabled: true,
  createdAt: true,
} as const;

/** Everything but the sealed key: what listings and the admin read. */
const CHANNEL = {
  id: true,
  name: true,
  type: true,
  baseUrl: true,
  keyHint: true,
  models: true,
  weight: true,
  priority: true,
  state: true,
  disabledReason: true,
  disabledAt: true,
  ownerAccountId: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type TModelRow = Prisma.ModelGetPayload<{ select: typeof MODEL }>;
export type TChannelRow = Prisma.ChannelGetPayload<{ select: typeof CHANNEL }>;
export type TChannelWithKey = TChannelRow & { keyEncrypted: string };

export type TModelData = {
  key: string;
  displayName: string;
  kind: TModelKind;
  upstreamModel: string;
  contextWindow: number;
  inputPriceMicro: number;
  outputPriceMicro: number;
  /** Absent: the column's default, 0. */
  unitPriceMicro?: number;
  supportsTools: boolean;
  supportsReasoning: boolean;
  enabled: boolean;
};

export type TChannelData = {
  name: string;
  type: TChannelType;
  baseUrl: string;
  keyEncrypted: string;
  keyHint: string;
  models: string[];
  weight: number;
  priority: number;
  ownerAccountId: string | null;
};

// Models ------------------------------------------------------------------------------------

export async function insertModel(data: TModelData, tx: TDbOrTx = getDb()) {
  return tx.model.create({ data, select: MODEL });
}

export async function updateModelById(id: string, data: Partial<Omit<TModelData, "key">>, tx: TDbOrTx = getDb()) {
  return tx.model.update({ where: { id }, data, select: MODEL });
}

export async function deleteModelById(id: string, tx: TDbOrTx = getDb()) {
  await tx.model.delete({ where: { id } });
}

/** Agent versions that still run on a model (anything not retired) and channels that serve it. */
export async function countModelUsers(key: string, tx: TDbOrTx = getDb()) {
  const [agents, channels] = await Promise.all([
    tx.agentVersion.count({ where: { state: { notIn: ["removed", "upgraded"] }, config: { path: ["model_key"], equals: key }, agent: { deletedAt: null } } }),
    tx.channel.count({ where: { models: { has: key } } }),
  ]);
  return { agents, channels };
}

export async function findModelById(id: string, tx: TDbOrTx = getDb()) {
  return tx.model.findUnique({ where: { id }, select: MODEL });
}

// The chat's routing reading (gateway.service), refreshed in the background every half second by
// each web process: named statements on the direct pool (direct-pool.ts), the same rows as Prisma's
// MODEL and CHANNEL selects, for a fraction of the query engine's CPU.
const MODEL_COLUMNS = `id, key, display_name AS "displayName", kind::text AS kind, upstream_model AS "upstreamModel", context_window AS "contextWindow",
  input_price_micro AS "inputPriceMicro", output_price_micro AS "outputPriceMicro", supports_tools AS "supportsTools", supports_reasoning AS "supportsReasoning", unit_price_micro AS "unitPriceMicro", enabled, created_at AS "createdAt"`;
const CHANNEL_COLUMNS = `id, name, type::text AS type, base_url AS "baseUrl", key_hint AS "keyHint", models, weight, priority, state::text AS state,
  disabled_reason AS "disabledReason", disabled_at AS "disabledAt", owner_account_id AS "ownerAccountId", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A model by its key: the chat's routing reads it twice a second, the editors on save. */
export async function findModelByKey(key: string, tx?: TDbOrTx): Promise<TModelRow | null> {
  const rows = await queryDirect<TModelRow>({ name: "zl_model_by_key", text: `SELECT ${MODEL_COLUMNS} FROM model WHERE key = $1`, values: [key] }, tx);
  return rows[0] ?? null;
}

export async function listModels(where: { enabledOnly: boolean }, tx: TDbOrTx = getDb()) {
  return tx.model.findMany({ where: where.enabledOnly ? { enabled: true } : {}, orderBy: [{ kind: "asc" }, { key: "asc" }], select: MODEL });
}

/** Which of these keys the catalogue has: an account's channel may only serve catalogue models. */
export async function findExistingModelKeys(keys: string[], tx: TDbOrTx = getDb()) {
  return (await tx.model.findMany({ where: { key: { in: keys } }, select: { key: true } })).map((m) => m.key);
}

// Channels ----------------------------------------------------------------------------------

export async function insertChannel(data: TChannelData, tx: TDbOrTx = getDb()) {
  return tx.channel.create({ data, select: CHANNEL });
}

export async function updateChannelById(id: string, data: Partial<TChannelData>, tx: TDbOrTx = getDb()) {
  return tx.channel.update({ where: { id }, data, select: CHANNEL });
}

export async function deleteChannelById(id: string, tx: TDbOrTx = getDb()) {
  await tx.channel.delete({ where: { id } });
}

export async function findChannelById(id: string, tx: TDbOrTx = getDb()) {
  return tx.channel.findUnique({ where: { id }, select: CHANNEL });
}

export async function findChannelWithKeyById(id: string, tx: TDbOrTx = getDb()): Promise<TChannelWithKey | null> {
  return tx.channel.findUnique({ where: { id }, select: { ...CHANNEL, keyEncrypted: true } });
}

export async function listChannels(where: { ownerAccountId?: string | null } = {}, tx: TDbOrTx = getDb()) {
  return tx.channel.findMany({
    where: where.ownerAccountId === undefined ? {} : { ownerAccountId: where.ownerAccountId },
    orderBy: [{ priority: "desc" }, { createdAt: "asc" }],
    select: CHANNEL,
  });
}

/** Enabled channels that serve a model: the platform's, plus the account's own keys when given. */
export async function listEnabledChannelsForModel(modelKey: string, accountId: string | null, tx?: TDbOrTx): Promise<TChannelWithKey[]> {
  return queryDirect<TChannelWithKey>(
    {
      name: "zl_enabled_channels_for_model",
      text: `SELECT ${CHANNEL_COLUMNS}, key_encrypted AS "keyEncrypted" FROM channel
        WHERE state = 'enabled' AND $1 = ANY(models) AND (owner_account_id IS NULL OR owner_account_id = $2) ORDER BY created_at, id`,
      values: [modelKey, accountId],
    },
    tx,
  );
}

/** Accounts with an enabled channel of their own (private key service): few, and read as one list. */
export async function listChannelOwnerIds(tx?: TDbOrTx): Promise<string[]> {
  const rows = await queryDirect<{ id: string }>(
    {
      name: "zl_channel_owner_ids",
      text: `SELECT DISTINCT owner_account_id AS id FROM channel WHERE state = 'enabled' AND owner_account_id IS NOT NULL`,
      values: [],
    },
    tx,
  );
  return rows.map((r) => r.id);
}

/**
 * Moves a channel to a state. Automatic disabling only applies to a channel still enabled, so it
 * never overwrites an administrator's decision or a reason recorded a moment earlier.
 */
export async function setChannelState(id: string, state: TChannelState, reason: string | null, opts: { onlyIfEnabled?: boolean } = {}, tx: TDbOrTx = getDb()) {
  const disabled = state !== "enabled";
  const { count } = await tx.channel.updateMany({
    where: { id, ...(opts.onlyIfEnabled ? { state: "enabled" as const } : {}) },
    data: { state, disabledReason: disabled ? reason : null, disabledAt: disabled ? new Date() : null },
  });
  return count > 0;
}

// Failures and logs -------------------------------------------------------------------------

export async function insertChannelFailure(data: { channelId: string; reason: string; status: number | null }, tx: TDbOrTx = getDb()) {
  await tx.channelFailure.create({ data });
}

export async function countChannelFailuresSince(channelId: string, since: Date, tx: TDbOrTx = getDb()) {
  return tx.channelFailure.count({ where: { channelId, createdAt: { gte: since } } });
}

/** Failures per channel since a moment: the administrators' "recent failures" column. */
export async function countFailuresByChannelSince(since: Date, tx: TDbOrTx = getDb()) {
  const rows = await tx.channelFailure.groupBy({ by: ["channelId"], where: { createdAt: { gte: since } }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.channelId, r._count._all]));
}

/** Forgets a channel's failures: re-enabling it starts the window afresh. */
export async function deleteChannelFailures(channelId: string, tx: TDbOrTx = getDb()) {
  await tx.channelFailure.deleteMany({ where: { channelId } });
}

export async function insertModelRequestLog(
  data: {
    requestId: string;
    modelKey: string;
    accountId: string | null;
    attempts: Prisma.InputJsonValue;
    finalChannelId: string | null;
    ok: boolean;
    promptTokens?: number | null;
    completionTokens?: number | null;
    firstChunkMs?: number | null;
    totalMs?: number | null;
  },
  tx?: TDbOrTx,
) {
  // Once per model call, chats' included: straight through node-postgres (direct-pool.ts).
  await executeDirect(
    {
      name: "zl_insert_model_request_log",
      text: `INSERT INTO model_request_log (request_id, model_key, account_id, attempts, final_channel_id, ok, prompt_tokens, completion_tokens, first_chunk_ms, total_ms, created_at)
        VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11::timestamptz AT TIME ZONE 'UTC')`,
      values: [
        data.requestId,
        data.modelKey,
        data.accountId,
        JSON.stringify(data.attempts),
        data.finalChannelId,
        data.ok,
        data.promptTokens ?? null,
        data.completionTokens ?? null,
        data.firstChunkMs ?? null,
        data.totalMs ?? null,
        new Date().toISOString(),
      ],
    },
    tx,
  );
}

export async function findModelRequestLogs(requestId: string, tx: TDbOrTx = getDb()) {
  return tx.modelRequestLog.findMany({ where: { requestId }, orderBy: { id: "asc" } });
}
