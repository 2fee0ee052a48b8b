// The private key service (flagship and enterprise editions): an account brings its own
// upstream keys. Its channels serve only its own requests, before the platform's (gateway.service),
// may serve only models of the catalogue, must point at the public internet, and are invisible to
// every other account (not_found). Keys are sealed at rest and shown only by their hint.
import { ZodError } from "zod";
import { editionAllowing } from "../accounts/editions";
import { assertFeature, getEntitlements } from "../accounts/entitlements.service";
import { AppError } from "../errors/app-error";
import { getEnv } from "../env";
import { sealSecret } from "../lib/secret-box";
import type { TChannelProbe } from "./channel-probe";
import { assertKeyFitsType, hintKey, runChannelTest, toChannelView, type TChannelTestResult } from "./channels.service";
import * as repo from "./models.repository";
import { listCatalogueModels } from "./models.service";
import type { TChannelView, TCreateOwnChannelInput, TUpdateChannelInput } from "./models.schema";
import { postChatCompletion } from "./openai-compatible-client";
import { assertPublicBaseUrl } from "./public-base-url";

/** The settings card: the account's own channels, or which edition would include the service. */
export async function getOwnChannelsPanel(accountId: string) {
  const { features } = await getEntitlements(accountId);
  if (!features.privateKeyService)
    return { available: false as const, upgradeTo: editionAllowing((e) => e.features.privateKeyService) ?? "enterprise", channels: [], models: [] };
  const [channels, models] = await Promise.all([listOwnChannels(accountId), listCatalogueModels()]);
  return { available: true as const, upgradeTo: null, channels, models: models.map((m) => ({ key: m.key, display_name: m.display_name })) };
}

export async function listOwnChannels(accountId: string): Promise<TChannelView[]> {
  await assertFeature(accountId, "privateKeyService");
  return (await repo.listChannels({ ownerAccountId: accountId })).map(toChannelView);
}

export async function createOwnChannel(accountId: string, input: TCreateOwnChannelInput): Promise<TChannelView> {
  await assertFeature(accountId, "privateKeyService");
  const models = await assertCatalogueModels(input.models);
  await assertPublicBaseUrl(input.base_url);
  const row = await repo.insertChannel({
    name: input.name,
    type: input.type,
    baseUrl: input.base_url,
    keyEncrypted: sealSecret(input.key),
    keyHint: hintKey(input.key),
    models,
    weight: input.weight,
    priority: input.priority,
    ownerAccountId: accountId,
  });
  return toChannelView(row);
}

export async function updateOwnChannel(accountId: string, id: string, input: TUpdateChannelInput): Promise<TChannelView> {
  await assertKeyFitsType(await requireOwnChannel(accountId, id), input);
  const models = input.models ? await assertCatalogueModels(input.models) : undefined;
  if (input.base_url) await assertPublicBaseUrl(input.base_url);
  const row = await repo.updateChannelById(id, {
    name: input.name,
    type: input.type,
    baseUrl: input.base_url,
    models,
    weight: input.weight,
    priority: input.priority,
    ...(input.key ? { keyEncrypted: sealSecret(input.key), keyHint: hintKey(input.key) } : {}),
  });
  return toChannelView(row);
}

export async function deleteOwnChannel(accountId: string, id: string): Promise<{ id: string }> {
  const channel = await requireOwnChannel(accountId, id);
  // Same rule as the platform's: a live channel is disabled first, so deleting is a decision.
  if (channel.state === "enabled") throw new AppError("channel_in_use");
  await repo.deleteChannelById(id);
  return { id };
}

export async function enableOwnChannel(accountId: string, id: string): Promise<TChannelView> {
  await requireOwnChannel(accountId, id);
  await repo.deleteChannelFailures(id);
  await repo.setChannelState(id, "enabled", null);
  return toChannelView((await repo.findChannelById(id))!);
}

export async function disableOwnChannel(accountId: string, id: string): Promise<TChannelView> {
  await requireOwnChannel(accountId, id);
  await repo.setChannelState(id, "disabled_manual", "manual");
  return toChannelView((await repo.findChannelById(id))!);
}

/** The test button, through the SSRF guard as every request of an own channel: checked at connect time. */
export async function testOwnChannel(accountId: string, id: string, probe: TChannelProbe): Promise<TChannelTestResult> {
  await requireOwnChannel(accountId, id);
  const channel = await repo.findChannelWithKeyById(id);
  if (!channel) throw new AppError("not_found");
  return runChannelTest(channel, {
    post: (upstream, body) => postChatCompletion({ ...upstream, guarded: true }, body, { connectTimeoutMs: getEnv().MODEL_CONNECT_TIMEOUT_MS }),
    probe,
  });
}

/** The account's channel, or not_found; the edition check comes first so a lapsed plan is told why. */
async function requireOwnChannel(accountId: string, id: string) {
  await assertFeature(accountId, "privateKeyService");
  const channel = await repo.findChannelById(id);
  if (!channel || channel.ownerAccountId !== accountId) throw new AppError("not_found");
  return channel;
}

async function assertCatalogueModels(keys: string[]) {
  const unique = [...new Set(keys)];
  const known = new Set(await repo.findExistingModelKeys(unique));
  const unknown = unique.findIndex((k) => !known.has(k));
  if (unknown >= 0) throw new ZodError([{ code: "custom", path: ["models", unknown], message: "validation.model_unknown", input: unique[unknown] }]);
  return unique;
}
