// Channel administration for platform administrators: keys are sealed at rest and shown only by
// their last four characters; an enabled channel cannot be deleted (disable it first).
import { ZodError } from "zod";
import { AppError } from "../errors/app-error";
import { getEnv } from "../env";
import { openSecret, sealSecret } from "../lib/secret-box";
import type { TChannelProbe } from "./channel-probe";
import * as repo from "./models.repository";
import {
  findChannelKeyIssue,
  isMediaChannelType,
  type TAdminChannelView,
  type TChannelType,
  type TChannelView,
  type TCreateChannelInput,
  type TMediaChannelType,
  type TUpdateChannelInput,
} from "./models.schema";
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
  await assertKeyFitsType(await requireChannel(id), input);
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
 * The channel test button: a one-token request to the channel's first model, or for a media
 * provider's channel the provider's own cheap authenticated request (channel-probe.ts). It does not
 * count toward auto-disable, and works on a disabled channel so it can be checked before re-enabling.
 */
export async function testChannel(id: string, probe: TChannelProbe): Promise<TChannelTestResult> {
  const channel = await repo.findChannelWithKeyById(id);
  if (!channel) throw new AppError("not_found");
  return runChannelTest(channel, {
    post: (upstream, body) => postChatCompletion(upstream, body, { connectTimeoutMs: getEnv().MODEL_CONNECT_TIMEOUT_MS }),
    probe,
  });
}

export type TChannelTestResult = { ok: true; ms: number; error: null };
type TPost = (upstream: TUpstream, body: Record<string, unknown>) => Promise<unknown>;
/** How a test reaches the channel: chat completions through `post`, media providers through `probe`. */
export type TChannelTesters = { post: TPost; probe: TChannelProbe };

/**
 * One test request through the given client (own channels pass the SSRF-guarded one). A key the
 * provider reports as banned takes an enabled channel out of rotation at once, as the gateway does.
 */
export async function runChannelTest(channel: repo.TChannelWithKey, testers: TChannelTesters): Promise<TChannelTestResult> {
  // The offline channel runs in this process: there is nothing to reach, so it always answers.
  if (channel.type === "offline") return { ok: true, ms: 0, error: null };
  if (isMediaChannelType(channel.type)) return runProbe(channel, channel.type, testers.probe);
  const post = testers.post;
  const modelKey = channel.models[0];
  const model = modelKey ? await repo.findModelByKey(modelKey) : null;
  const started = Date.now();
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

async function runProbe(channel: repo.TChannelWithKey, type: TMediaChannelType, probe: TChannelProbe): Promise<TChannelTestResult> {
  const started = Date.now();
  const result = await probe({ type, baseUrl: channel.baseUrl, secret: openSecret(channel.keyEncrypted), guarded: Boolean(channel.ownerAccountId) });
  if (result.ok) return { ok: true, ms: Date.now() - started, error: null };
  if (result.keyRefused) await repo.setChannelState(channel.id, "disabled_auto", "key_banned", { onlyIfEnabled: true });
  throw new AppError("channel_test_failed", { data: { ok: false, ms: Date.now() - started, error: result.error } });
}

async function requireChannel(id: string) {
  const channel = await repo.findChannelById(id);
  if (!channel) throw new AppError("not_found");
  return channel;
}

/**
 * An update must leave the channel with a key its type can use: a new key is checked against the
 * (new or stored) type, and a type change without a new key against the stored key, so an SD WebUI
 * channel saved without a key cannot become a Kling one with none.
 */
export async function assertKeyFitsType(stored: { id: string; type: TChannelType }, input: Pick<TUpdateChannelInput, "type" | "key">) {
  const type = input.type ?? stored.type;
  let key = input.key;
  if (key === undefined) {
    if (!input.type || input.type === stored.type) return;
    const sealed = await repo.findChannelWithKeyById(stored.id);
    key = sealed ? openSecret(sealed.keyEncrypted) : "";
  }
  const issue = findChannelKeyIssue(type, key);
  if (issue) throw new ZodError([{ code: "custom", path: ["key"], message: issue, input: undefined }]);
}

/** The last four characters of a long key; "" when there is no key (a self-hosted server without authentication). */
export function hintKey(key: string) {
  if (!key) return "";
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
