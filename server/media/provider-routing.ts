// Which channel and provider run a job, and the context an adapter gets. A model's enabled channels
// are tried as the chat gateway orders them: the account's own keys first, then the platform's by
// priority and weight; only channels whose provider makes the job's kind count. An account's own
// channel is reached through the SSRF guard (its base URL is the user's); the platform's channels are
// the administrators' and are reached directly.
import { fetch as undiciFetch, type Dispatcher } from "undici";
import { openSecret } from "../lib/secret-box";
import { orderCandidates } from "../models/channel-selection";
import { getGuardedDispatcher } from "../models/guarded-dispatcher";
import * as models from "../models/models.repository";
import type { TMediaJobKind } from "./generation.schema";
import { getProvider, providerMakes, providerNameForChannel } from "./providers";
import type { TProviderContext, TProviderFetch, TProviderName } from "./providers/provider";

export type TMediaRoute = { channel: models.TChannelWithKey; provider: TProviderName };
/** A trained figure's avatar: which provider holds it, and its id there. */
export type TAvatarRef = { provider: string; avatarId: string };

export async function listMediaRoutes(modelKey: string, kind: TMediaJobKind, accountId: string): Promise<TMediaRoute[]> {
  const channels = await models.listEnabledChannelsForModel(modelKey, accountId);
  const routes: TMediaRoute[] = [];
  const own = orderCandidates(channels.filter((c) => c.ownerAccountId));
  const platform = orderCandidates(channels.filter((c) => !c.ownerAccountId));
  for (const channel of [...own, ...platform]) {
    const provider = providerNameForChannel(channel.type);
    if (provider && providerMakes(provider, kind)) routes.push({ channel, provider });
  }
  return routes;
}

/**
 * A lip-sync's routes for a figure: the provider that trained its avatar first (it speaks the figure
 * best), then those that re-time any clip. A provider that can only animate an avatar it trained
 * (HeyGen) cannot lip-sync a clip without one, so it is left out unless it holds the figure's avatar.
 */
export function orderLipsyncRoutes(routes: TMediaRoute[], avatar: TAvatarRef | null): TMediaRoute[] {
  const usable = routes.filter((r) => !getProvider(r.provider).lipsyncNeedsAvatar || r.provider === avatar?.provider);
  if (!avatar) return usable;
  return [...usable.filter((r) => r.provider === avatar.provider), ...usable.filter((r) => r.provider !== avatar.provider)];
}

/** The routes a job may be sent to, in order (a lip-sync's ordered by its figure's avatar). */
export async function listJobRoutes(job: { modelKey: string; kind: TMediaJobKind; ownerAccountId: string; params: unknown }) {
  const routes = await listMediaRoutes(job.modelKey, job.kind, job.ownerAccountId);
  if (job.kind !== "lipsync") return routes;
  return orderLipsyncRoutes(routes, (job.params as { avatar?: TAvatarRef | null }).avatar ?? null);
}

/** The route a started job keeps (its task lives at that channel's provider). */
export async function findJobRoute(channelId: string, provider: TProviderName): Promise<TMediaRoute | null> {
  const channel = await models.findChannelWithKeyById(channelId);
  return channel ? { channel: channel as models.TChannelWithKey, provider } : null;
}

function channelFetch(channel: models.TChannelWithKey): TProviderFetch {
  if (!channel.ownerAccountId) return (url, init) => fetch(url, init);
  const dispatcher = getGuardedDispatcher(channel.baseUrl) as Dispatcher;
  return (url, init) => undiciFetch(url, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
}

export function buildProviderContext(
  route: TMediaRoute,
  job: { id: string; callbackToken: string },
  opts: { publicUrl?: string; onProgress?: (p: number) => void },
): TProviderContext {
  return {
    baseUrl: route.channel.baseUrl.replace(/\/+$/, ""),
    secret: openSecret(route.channel.keyEncrypted),
    fetch: channelFetch(route.channel),
    jobId: job.id,
    callbackUrl: opts.publicUrl ? `${opts.publicUrl.replace(/\/+$/, "")}/api/v1/media/callbacks/${job.callbackToken}` : undefined,
    onProgress: opts.onProgress,
  };
}
