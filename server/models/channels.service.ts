// Channel administration for platform administrators: keys are sealed at rest and shown only by
// their last four characters; an enabled channel cannot be deleted (disable it first).
import { AppError } from "../errors/app-error";
import { getEnv } from "../env";
import { openSecret, sealSecret } from "../lib/secret-box";
import * as repo from "./models.repository";
import type { TAdminChannelView, TChannelView, TCreateChannelInput, TUpdateChannelInput } from "./models.schema";
import { postChatCompletion, UpstreamError, type TUpstream } from "./openai-compatible-client";

/** The platform's channels; accounts' own keys are theirs alone (own-channels.service.ts). */
export async function listChannels(): Promise<TAdminChannelView[]> {
  const since = new Date(Date.now() - getEnv().CHANNEL_FAILURE_WINDOW_MS);
  const [rows, failures] = await Promise.all([repo.listChannels({ ownerAccountId: null }), repo.countFailuresByChannelSince(since)]);
  return rows.map((row) => ({ ...toChannelView(row), recent_failures: failures.get(row.id) ?? 0 }));
}

export async function getChannel(id: string): Promise<TChannelView> {
  return toChannelView(await requireChannel(id));
}

export async function createChannel(input: TCreateChannelInput): Promise<TChannelView> {
  const row = await repo.insertChannel({
    name: input.name,
    type: input.type,
    baseUrl: input.base_url,
    keyEncrypted: sealSecret(input.key),
    keyHint: hintKey(input.key),
    models: [...new Set(input.models)],
    weight: input.weight,
    priority: input.priority,
    ownerAccountId: input.owner_account_id,
  });
  return toChannelView(row);
}

export async function updateChannel(id: string, input: TUpdateChannelInput): Promise<TChannelView> {
  await requireChannel(id);
  const row = await repo.updateChannelById(id, {
    name: input.name,
    type: input.type,
    baseUrl: input.base_url,
    models: input.models ? [...new Set(input.models)] : undefined,
    weight: input.weight,
    priority: input.priority,
    ...(input.key ? { keyEncrypted: sealSecret(input.key), keyHint: hintKey(input.key) } : {}),
  });
  return toChannelView(row);
}

export async function deleteChannel(id: string): Promise<{ id: string }> {
  const channel = await requireChannel(id);
  // Deleting a live channel would silently move its traffic; disabling first makes it a decision.
  if (channel.state === "enabled") throw new AppError("channel_in_use");
  await repo.deleteChannelById(id);
  return { id };
}

export async function enableChannel(id: string): Promise<TChannelView> {
  await requireChannel(id);
  // Old failures must not count again: a re-enabled channel starts with an empty window.
  await repo.deleteChannelFailures(id);
  await repo.setChannelState(id, "enabled", null);
  return getChannel(id);
}

export async function disableChannel(id: string): Promise<TChannelView> {
  await requireChannel(id);
  await repo.setChannelState(id, "disabled_manual", "manual");
  return getChannel(id);
}

/**
 * The channel test button: a one-token request to the channel's first model. It does not count
 * toward auto-disable, and works on a disabled channel so it can be checked before re-enabling.
 */
export async function testChannel(id: string): Promise<TChannelTestResult> {
  const channel = await repo.findChannelWithKeyById(id);
  if (!channel) throw new AppError("not_found");
  return runChannelTest(channel, (upstream, body) => postChatCompletion(upstream, body, { connectTimeoutMs: getEnv().MODEL_CONNECT_TIMEOUT_MS }));
}

export type TChannelTestResult = { ok: true; ms: number; error: null };
type TPost = (upstream: TUpstream, body: Record<string, unknown>) => Promise<unknown>;

/**
 * One test request through the given client (own channels pass the SSRF-guarded one). A key the
 * provider reports as banned takes an enabled channel out of rotation at once, as the gateway does.
 */
export async function runChannelTest(channel: repo.TChannelWithKey, post: TPost): Promise<TChannelTestResult> {
  const modelKey = channel.models[0];
  const model = modelKey ? await repo.findModelByKey(modelKey) : null;
  const started = Date.now();
  // The offline channel runs in this process: there is nothing to reach, so it always answers.
  if (channel.type === "offline") return { ok: true, ms: 0, error: null };
  try {
    await post(
      { baseUrl: channel.baseUrl, apiKey: openSecret(channel.keyEncrypted) },
      { model: model?.upstreamModel ?? modelKey ?? "", messages: [{ role: "user", content: "hi" }], max_tokens: 1 },
    );
    return { ok: true, ms: Date.now() - started, error: null };
  } catch (err) {
    const error = err instanceof UpstreamError ? (err.status ? `HTTP ${err.status}: ${err.message}` : `${err.kind}: ${err.message}`) : String(err);
    if (err instanceof UpstreamError && err.keyBanned) await repo.setChannelState(channel.id, "disabled_auto", "key_banned", { onlyIfEnabled: true });
    throw new AppError("channel_test_failed", { cause: err, data: { ok: false, ms: Date.now() - started, error } });
  }
}

async function requireChannel(id: string) {
  const channel = await repo.findChannelById(id);
  if (!channel) throw new AppError("not_found");
  return channel;
}

export function hintKey(key: string) {
  return key.length <= 8 ? "****" : key.slice(-4);
}

export function toChannelView(row: repo.TChannelRow): TChannelView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    base_url: row.baseUrl,
    key_hint: row.keyHint,
    models: row.models,
    weight: row.weight,
    priority: row.priority,
    state: row.state,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    owner_account_id: row.ownerAccountId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
