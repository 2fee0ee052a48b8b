// Embeddings for knowledge retrieval: vector search is on when an embedding model is
// configured, i.e. an enabled model of kind "embedding" served by an enabled platform channel
// (KNOWLEDGE_EMBEDDING_MODEL picks one when there are several). Channels are tried in the
// gateway's order; a failing channel is skipped, and no vectors means keyword search only.
import { getEnv } from "../env";
import { logger } from "../lib/logger";
import { createRefreshingCache } from "../lib/refreshing-cache";
import { openSecret } from "../lib/secret-box";
import { keepChatChannels, orderCandidates } from "./channel-selection";
import * as repo from "./models.repository";
import { postEmbeddings } from "./openai-compatible-client";

export type TEmbedder = { modelKey: string; embed(texts: string[]): Promise<number[][]> };

const BATCH = 64;

const embedderCache = createRefreshingCache<TEmbedder | null>({ maxAgeMs: 10_000, load: (wanted) => findEmbedder(wanted) });

/** The configured embedder, or null when there is none (read at most every 10 s). */
export function getEmbedder(): Promise<TEmbedder | null> {
  return embedderCache.get(process.env.KNOWLEDGE_EMBEDDING_MODEL?.trim() ?? "");
}

async function findEmbedder(wanted: string): Promise<TEmbedder | null> {
  const models = (await repo.listModels({ enabledOnly: true })).filter((m) => m.kind === "embedding" && (!wanted || m.key === wanted));
  for (const model of models) {
    const channels = keepChatChannels(await repo.listEnabledChannelsForModel(model.key, null)).filter((c) => !c.ownerAccountId && c.type !== "offline");
    if (!channels.length) continue;
    return {
      modelKey: model.key,
      async embed(texts) {
        const out: number[][] = [];
        for (let i = 0; i < texts.length; i += BATCH) out.push(...(await embedBatch(model.upstreamModel, channels, texts.slice(i, i + BATCH))));
        return out;
      },
    };
  }
  return null;
}

async function embedBatch(upstreamModel: string, channels: repo.TChannelWithKey[], input: string[]) {
  let lastError: unknown;
  for (const channel of orderCandidates(channels)) {
    try {
      return await postEmbeddings(
        { baseUrl: channel.baseUrl, apiKey: openSecret(channel.keyEncrypted) },
        { model: upstreamModel, input },
        { connectTimeoutMs: getEnv().MODEL_CONNECT_TIMEOUT_MS },
      );
    } catch (err) {
      lastError = err;
      logger.warn({ err, channelId: channel.id }, "embedding channel failed; trying the next");
    }
  }
  throw lastError;
}
